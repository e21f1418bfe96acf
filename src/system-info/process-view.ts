/** What the process topics share: CPU% arithmetic, the command shown, name matching. */
import type { NativeProcess, NativeProcessTable } from '../native/processes.js';
import { clip, formatPercent, plural } from './format.js';

export const COMMAND_CHARS = 90;

/**
 * CPU% as the share of ONE core over the sample: CPU time used between the two reads
 * divided by the time between them. A process busy on two cores shows 200%.
 * undefined when the process ended during the sample.
 */
export function cpuPercent(p: NativeProcess, intervalNs: number): number | undefined {
  if (p.cpuNs2 === undefined || intervalNs <= 0) return undefined;
  return (Math.max(0, p.cpuNs2 - p.cpuNs1) / intervalNs) * 100;
}

export function cpuCell(p: NativeProcess, intervalNs: number): string {
  const c = cpuPercent(p, intervalNs);
  return c === undefined ? '-' : formatPercent(c);
}

/** The command line as shown (redaction happens when the answer is built); `[name]` without one. */
export function commandOf(p: NativeProcess): string {
  if (p.kernelThread || p.cmdline.trim() === '') return `[${p.name}]`;
  return clip(p.cmdline, COMMAND_CHARS);
}

/**
 * Exact, case-insensitive match against the kernel's name, the executable's basename and
 * argv[0]'s basename: never a substring, so "ollama" finds neither "ollama-webui" nor
 * "grep ollama".
 */
export function matchesName(p: NativeProcess, name: string): boolean {
  const wanted = name.toLowerCase();
  return [p.name, p.exeBase, p.argv0Base].some((n) => n !== '' && n.toLowerCase() === wanted);
}

/** The pids given plus every process below them. */
export function withDescendants(table: NativeProcessTable, roots: Set<number>): Set<number> {
  const children = new Map<number, number[]>();
  for (const p of table.processes) {
    const list = children.get(p.ppid);
    if (list === undefined) children.set(p.ppid, [p.pid]);
    else list.push(p.pid);
  }
  const out = new Set<number>(roots);
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    for (const child of children.get(pid) ?? []) {
      if (!out.has(child)) {
        out.add(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** What the process table could not show, in words. */
export function processUnseen(table: NativeProcessTable, isRoot: boolean, platform: 'linux' | 'macos'): string[] {
  const unseen: string[] = [];
  if (table.denied > 0) {
    unseen.push(
      platform === 'macos'
        ? `${plural(table.denied, 'process', 'processes')} of other users: libproc does not show them without root`
        : `${plural(table.denied, 'process', 'processes')} could not be read (permission; /proc may be mounted with hidepid)`,
    );
  }
  const noExe = table.processes.filter((p) => p.exeUnreadable && !p.kernelThread).length;
  if (noExe > 0) {
    unseen.push(
      `the executable of ${plural(noExe, 'process', 'processes')} (${isRoot ? 'protected' : "other users'"}): ${noExe === 1 ? 'it is' : 'they are'} matched by name and argv[0] only`,
    );
  }
  return unseen;
}

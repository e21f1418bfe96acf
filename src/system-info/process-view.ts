/** What the process topics share: CPU% arithmetic, the cells shown, name matching. */
import { CMDLINE_MAX_BYTES, type MachineCpu, type NativeProcess, type NativeProcessTable } from '../native/processes.js';
import { formatBytes, formatCpuTime, formatDuration, formatPercent, plural } from './format.js';

/** Who is asking, which decides what they cannot see. */
export interface Viewer {
  isRoot: boolean;
  platform: 'linux' | 'macos';
}

/** The most characters of a command line shown (after redaction, which sees it whole). */
export const COMMAND_CHARS = 80;

/**
 * CPU% as the share of ONE core over the sample: CPU time used between the two reads
 * divided by the time between them. A process busy on two cores shows 200%.
 * undefined when the process ended during the sample.
 */
export function cpuPercent(p: NativeProcess, intervalNs: number): number | undefined {
  if (p.cpuNs2 === undefined || intervalNs <= 0) return undefined;
  return (Math.max(0, p.cpuNs2 - p.cpuNs1) / intervalNs) * 100;
}

/** Whether the process was gone at the second read (or its pid named another process by then). */
export const endedDuringSample = (p: NativeProcess): boolean => p.cpuNs2 === undefined;

export const isZombie = (p: NativeProcess): boolean => p.state === 'Z';

export function cpuCell(p: NativeProcess, intervalNs: number): string {
  const c = cpuPercent(p, intervalNs);
  return c === undefined ? 'ended' : formatPercent(c);
}

/** CPU time used since the process started (user + system), as of the last read. */
export const cpuTimeCell = (p: NativeProcess): string => formatCpuTime((p.cpuNs2 ?? p.cpuNs1) / 1e9);

/** How long the process has run. */
export const ageCell = (p: NativeProcess, nowEpochS: number): string =>
  p.startEpochS > 0 ? formatDuration(Math.max(0, nowEpochS - p.startEpochS)) : '?';

/**
 * The command line as shown, whole (the answer redacts, then cuts it): `[name]` for a
 * kernel thread or a process without one, `[name] <defunct>` for a zombie (as ps writes
 * them), and ` …` after one the library read only in part.
 */
export function commandOf(p: NativeProcess): string {
  if (isZombie(p)) return `[${p.name}] <defunct>`;
  if (p.cmdlineCut) return p.cmdline.trim() === '' ? `[${p.name}] (its first argument alone is over ${CMDLINE_MAX_BYTES / 1024} KiB)` : `${p.cmdline} …`;
  if (p.kernelThread || p.cmdline.trim() === '') return `[${p.name}]`;
  return p.cmdline;
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

/**
 * How the whole machine spent its CPU time over the sample, from the kernel's own counts:
 * `12% user, 3.0% system, 0.2% irq, 0% iowait, 1.2% steal, 83% idle`. user includes
 * nice, irq includes softirq; steal is time the hypervisor gave to other guests.
 * undefined without two samples or with no time between them.
 */
export function machineCpuSplit(cpu: [MachineCpu, MachineCpu] | undefined): string | undefined {
  if (cpu === undefined) return undefined;
  const [a, b] = cpu;
  const d = (x: number | undefined, y: number | undefined): number | undefined =>
    x === undefined || y === undefined ? undefined : Math.max(0, y - x);
  const parts: [string, number | undefined][] = [
    ['user', (d(a.user, b.user) ?? 0) + (d(a.nice, b.nice) ?? 0)],
    ['system', d(a.system, b.system)],
    ['irq', a.irq === undefined ? undefined : (d(a.irq, b.irq) ?? 0) + (d(a.softirq, b.softirq) ?? 0)],
    ['iowait', d(a.iowait, b.iowait)],
    ['steal', d(a.steal, b.steal)],
    ['idle', d(a.idle, b.idle)],
  ];
  const total = parts.reduce((s, [, v]) => s + (v ?? 0), 0);
  if (total <= 0) return undefined;
  const shown = parts.filter(([, v]) => v !== undefined).map(([k, v]) => `${formatPercent((v! / total) * 100)} ${k}`);
  const missing = parts.filter(([, v]) => v === undefined).map(([k]) => k);
  return `${shown.join(', ')}${missing.length > 0 ? ` (${missing.join(', ')} not counted here)` : ''}`;
}

const label = (p: NativeProcess): string => `${p.pid} ${p.argv0Base || p.name}`;

/** A list of at most `max` processes by pid and name, with how many more. */
export function nameSome(ps: NativeProcess[], max = 5): string {
  const shown = ps.slice(0, max).map(label).join(', ');
  return ps.length > max ? `${shown} and ${ps.length - max} more` : shown;
}

/** Zombies, said as such: exited, their exit status not yet collected by their parent. */
export function zombieNote(ps: NativeProcess[]): string | undefined {
  const zombies = ps.filter(isZombie);
  if (zombies.length === 0) return undefined;
  const parents = [...new Set(zombies.map((z) => z.ppid))].sort((x, y) => x - y);
  return `${plural(zombies.length, 'zombie process', 'zombie processes')} (exited, not yet reaped by parent ${parents.slice(0, 5).join(', ')}): ${nameSome(zombies)}`;
}

/** What the process table could not show, in words. */
export function processUnseen(table: NativeProcessTable, { isRoot, platform }: Viewer): string[] {
  const unseen: string[] = [];
  if (table.denied > 0) {
    unseen.push(
      platform === 'macos'
        ? `${plural(table.denied, 'process', 'processes')} of other users: libproc does not show them without root`
        : `${plural(table.denied, 'process', 'processes')} could not be read (permission; /proc may be mounted with hidepid)`,
    );
  }
  // Only a refusal counts here: a zombie or a process gone has no executable to hide.
  const noExe = table.processes.filter((p) => p.exeUnreadable && !p.kernelThread).length;
  if (noExe > 0) {
    unseen.push(
      `the executable of ${plural(noExe, 'process', 'processes')} (${isRoot ? 'protected' : "other users'"}): ${noExe === 1 ? 'it is' : 'they are'} matched by name and argv[0] only`,
    );
  }
  return unseen;
}

/** The cells both process topics show after their own first columns, and what they mean. */
export const PROCESS_COLUMNS = ['S', 'THR', 'CPU%', 'TIME', 'MEM', 'AGE', 'COMMAND'];
export const PROCESS_WIDTHS = [undefined, undefined, undefined, undefined, undefined, undefined, COMMAND_CHARS];
export const PROCESS_LEGEND =
  'S is the state (R running, S sleeping, D in uninterruptible I/O, Z zombie, T stopped, I idle); THR threads; TIME CPU time used since the start; AGE time since the start; MEM resident memory (RSS)';

export function processCells(p: NativeProcess, table: NativeProcessTable): string[] {
  return [
    p.state,
    String(p.threads),
    cpuCell(p, table.intervalNs),
    cpuTimeCell(p),
    formatBytes(p.rssBytes),
    ageCell(p, table.nowEpochS),
    commandOf(p),
  ];
}

/** The CPU% convention, said once per answer. */
export function cpuNote(table: NativeProcessTable): string {
  const seconds = (table.intervalNs / 1e9).toFixed(2);
  const tick = table.intervalNs > 0 ? `; one clock tick is ${formatPercent((table.tickNs / table.intervalNs) * 100)} here` : '';
  return `CPU% is the share of one core over a ${seconds} s sample (a process busy on two cores shows 200%)${tick}; 'ended' means the process ended during the sample`;
}

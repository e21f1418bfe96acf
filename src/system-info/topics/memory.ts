/**
 * `memory`: total, used and available, and the largest processes. Linux: used is
 * MemTotal - MemAvailable (page cache the kernel can drop counts as available; MemFree
 * alone would call a healthy box full), and a container's cgroup limit when it has one.
 * macOS: hw.memsize and memory_pressure's free percentage.
 */
import { readFile } from 'node:fs/promises';
import { readProcessTable } from '../../native/processes.js';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatPercent } from '../format.js';
import { COMMAND_CHARS, commandOf } from '../process-view.js';
import { runProbe } from '../probe.js';

const LARGEST = 8;

/** /proc/meminfo values in bytes (the file gives kB, meaning KiB). */
export function parseMeminfo(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([\w()]+):\s+(\d+)(?:\s+kB)?/.exec(line);
    if (m !== null) out.set(m[1]!, Number(m[2]) * (line.includes('kB') ? 1024 : 1));
  }
  return out;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** cgroup v2 memory.max/current, else v1 limit_in_bytes/usage_in_bytes; undefined when unlimited. */
async function cgroupLimit(): Promise<{ limit: number; current: number | undefined } | undefined> {
  const v2 = await readOptional('/sys/fs/cgroup/memory.max');
  if (v2 !== undefined) {
    if (v2 === 'max') return undefined;
    const current = await readOptional('/sys/fs/cgroup/memory.current');
    return { limit: Number(v2), current: current === undefined ? undefined : Number(current) };
  }
  const v1 = await readOptional('/sys/fs/cgroup/memory/memory.limit_in_bytes');
  // v1 writes "unlimited" as a number near 2^63.
  if (v1 === undefined || Number(v1) > 2 ** 60) return undefined;
  const current = await readOptional('/sys/fs/cgroup/memory/memory.usage_in_bytes');
  return { limit: Number(v1), current: current === undefined ? undefined : Number(current) };
}

export async function memoryTopic(ctx: TopicContext): Promise<AnswerParts> {
  // The largest processes need no CPU sample: one quick pass.
  const tablePromise = readProcessTable({ sampleMs: 0, signal: ctx.signal }).catch((err: unknown) => err as Error);
  const facts: Fact[] = [];
  const notes: string[] = [];
  const unseen: string[] = [];
  if (process.platform === 'darwin') {
    await macFacts(ctx, facts, notes, unseen);
  } else {
    const mem = parseMeminfo(await readFile('/proc/meminfo', 'utf8'));
    const total = mem.get('MemTotal') ?? 0;
    const available = mem.get('MemAvailable') ?? mem.get('MemFree') ?? 0;
    const cache = (mem.get('Cached') ?? 0) + (mem.get('Buffers') ?? 0);
    const swapTotal = mem.get('SwapTotal') ?? 0;
    const swapUsed = swapTotal - (mem.get('SwapFree') ?? 0);
    facts.push(
      { label: 'total', value: formatBytes(total) },
      { label: 'used', value: `${formatBytes(total - available)} (${formatPercent(((total - available) / total) * 100)})` },
      { label: 'available', value: formatBytes(available) },
      { label: 'page cache', value: `${formatBytes(cache)} (mostly reclaimable, counted as available)` },
      { label: 'swap', value: swapTotal > 0 ? `${formatBytes(swapUsed)} used of ${formatBytes(swapTotal)}` : 'none' },
    );
    const cg = await cgroupLimit();
    if (cg !== undefined) {
      facts.push({
        label: 'container limit',
        value: `${formatBytes(cg.limit)}${cg.current !== undefined ? `, ${formatBytes(cg.current)} used (${formatPercent((cg.current / cg.limit) * 100)})` : ''}`,
      });
    }
    notes.push('used = MemTotal - MemAvailable');
  }
  const table = await tablePromise;
  let rows: string[][] = [];
  if (table instanceof Error) {
    unseen.push(`the largest processes: ${table.message}`);
  } else {
    rows = [...table.processes]
      .sort((a, b) => b.rssBytes - a.rssBytes || a.pid - b.pid)
      .slice(0, LARGEST)
      .map((p) => [String(p.pid), formatBytes(p.rssBytes), commandOf(p)]);
    if (table.denied > 0) unseen.push(`${table.denied} processes could not be read and are not among the largest listed`);
  }
  return {
    topic: 'memory',
    summary: `memory: the machine's, and the ${LARGEST} largest processes by resident memory`,
    facts,
    columns: ['PID', 'MEM', 'COMMAND'],
    widths: [undefined, undefined, COMMAND_CHARS],
    rows,
    notes,
    unseen,
  };
}

/** memory_pressure's "System-wide memory free percentage: 61%". */
export const parseMemoryFreePercent = (stdout: string): number | undefined => {
  const m = /System-wide memory free percentage:\s*(\d+)%/.exec(stdout);
  return m === null ? undefined : Number(m[1]);
};

/** `sysctl -n vm.swapusage`: "total = 2048.00M  used = 1023.25M  free = ...", in bytes. */
export const parseSwapUsage = (stdout: string): { total: number; used: number } | undefined => {
  const m = /total = ([\d.]+)M\s+used = ([\d.]+)M/.exec(stdout);
  return m === null ? undefined : { total: Number(m[1]) * 1024 * 1024, used: Number(m[2]) * 1024 * 1024 };
};

/** macOS: written against the documented output of sysctl and memory_pressure; unverified here. */
async function macFacts(ctx: TopicContext, facts: Fact[], notes: string[], unseen: string[]): Promise<void> {
  const [size, pressure, swap] = await Promise.all([
    runProbe('sysctl', ['-n', 'hw.memsize'], ctx.signal),
    runProbe('memory_pressure', [], ctx.signal),
    runProbe('sysctl', ['-n', 'vm.swapusage'], ctx.signal),
  ]);
  const total = Number(size.stdout.trim());
  const free = parseMemoryFreePercent(pressure.stdout);
  facts.push({ label: 'total', value: formatBytes(total) });
  if (free !== undefined) {
    const available = (total * free) / 100;
    facts.push(
      { label: 'used', value: `${formatBytes(total - available)} (${formatPercent(100 - free)})` },
      { label: 'available', value: formatBytes(available) },
    );
    notes.push("available is memory_pressure's system-wide free percentage of the total");
  } else {
    unseen.push('memory_pressure gave no free percentage');
  }
  const sw = parseSwapUsage(swap.stdout);
  if (sw !== undefined) facts.push({ label: 'swap', value: `${formatBytes(sw.used)} used of ${formatBytes(sw.total)}` });
}

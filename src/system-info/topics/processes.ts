/** `processes`: the busiest processes by CPU over a half-second sample, then by memory. */
import { availableParallelism } from 'node:os';
import { nativeLibrary } from '../../native/library.js';
import { readProcessTable, type NativeProcessTable } from '../../native/processes.js';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatPercent, plural } from '../format.js';
import {
  cpuNote, cpuPercent, endedDuringSample, machineCpuSplit, nameSome, PROCESS_COLUMNS, PROCESS_LEGEND, PROCESS_WIDTHS,
  processCells, processUnseen, zombieNote, type Viewer,
} from '../process-view.js';

export async function processesTopic(ctx: TopicContext): Promise<AnswerParts> {
  const table = await readProcessTable({ sampleMs: ctx.sampleMs, signal: ctx.signal });
  return processesAnswer(table, { isRoot: ctx.isRoot, platform: nativeLibrary().platform }, availableParallelism());
}

/** The answer from a process table already read (tests give it captured tables). */
export function processesAnswer(table: NativeProcessTable, viewer: Viewer, cores: number): AnswerParts {
  // A process that ended during the sample has no CPU figure to rank by: named apart.
  const live = table.processes.filter((p) => !endedDuringSample(p));
  const ended = table.processes.filter(endedDuringSample);
  const cpu = new Map(live.map((p) => [p.pid, cpuPercent(p, table.intervalNs) ?? 0]));
  const sorted = [...live].sort(
    (a, b) => (cpu.get(b.pid) ?? 0) - (cpu.get(a.pid) ?? 0) || b.rssBytes - a.rssBytes || a.pid - b.pid,
  );
  const total = [...cpu.values()].reduce((s, v) => s + v, 0);
  const seconds = (table.intervalNs / 1e9).toFixed(2);
  const facts: Fact[] = [];
  const split = machineCpuSplit(table.machineCpu);
  if (split !== undefined) facts.push({ label: 'machine CPU', value: `${split} of ${cores} cores over ${seconds} s` });
  facts.push({ label: 'all processes', value: `${formatPercent(total)} of one core in total (${cores} cores: ${cores * 100}% is all of them)` });
  const notes = [cpuNote(table), PROCESS_LEGEND];
  if (split !== undefined) notes.push("machine CPU is the kernel's own split of all cores' time over the sample (user includes nice, irq softirq; steal is time taken by the hypervisor)");
  if (ended.length > 0) notes.push(`ended during the sample, so not ranked: ${nameSome(ended)}`);
  if (table.vanished > 0) notes.push(`${plural(table.vanished, 'process', 'processes')} ended before ${table.vanished === 1 ? 'it' : 'they'} could be read`);
  const zombies = zombieNote(table.processes);
  if (zombies !== undefined) notes.push(zombies);
  return {
    topic: 'processes',
    summary: `processes: ${plural(table.processes.length, 'process', 'processes')} read; the busiest by CPU, then memory`,
    facts,
    columns: ['PID', 'PPID', 'USER', ...PROCESS_COLUMNS],
    widths: [undefined, undefined, 12, ...PROCESS_WIDTHS],
    rows: sorted.map((p) => [String(p.pid), String(p.ppid), p.user || String(p.uid), ...processCells(p, table)]),
    notes,
    unseen: processUnseen(table, viewer),
  };
}

/** `processes`: the busiest processes by CPU over a half-second sample, then by memory. */
import { availableParallelism } from 'node:os';
import { readProcessTable } from '../../native/processes.js';
import { nativeLibrary } from '../../native/library.js';
import type { AnswerParts } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatPercent, plural } from '../format.js';
import { commandOf, cpuCell, cpuPercent, processUnseen } from '../process-view.js';

export async function processesTopic(ctx: TopicContext): Promise<AnswerParts> {
  const table = await readProcessTable({ sampleMs: ctx.sampleMs, signal: ctx.signal });
  const live = table.processes.filter((p) => p.cpuNs2 !== undefined);
  const cpu = new Map(live.map((p) => [p.pid, cpuPercent(p, table.intervalNs) ?? 0]));
  const sorted = [...live].sort(
    (a, b) => (cpu.get(b.pid) ?? 0) - (cpu.get(a.pid) ?? 0) || b.rssBytes - a.rssBytes || a.pid - b.pid,
  );
  const total = [...cpu.values()].reduce((s, v) => s + v, 0);
  const cores = availableParallelism();
  const seconds = (table.intervalNs / 1e9).toFixed(2);
  const ended = table.processes.length - live.length + table.vanished;
  const notes = [
    `CPU% is the share of one core over a ${seconds} s sample (a process busy on two cores shows 200%); one clock tick is ${formatPercent((table.tickNs / table.intervalNs) * 100)} here`,
    'MEM is resident memory (RSS)',
  ];
  if (ended > 0) notes.push(`${plural(ended, 'process', 'processes')} ended while being read and ${ended === 1 ? 'is' : 'are'} not listed`);
  return {
    topic: 'processes',
    summary: `processes: ${plural(live.length, 'process', 'processes')} read; the busiest by CPU, then memory`,
    facts: [{ label: 'all processes', value: `${formatPercent(total)} of one core in total (${cores} cores: ${cores * 100}% is all of them)` }],
    columns: ['PID', 'PPID', 'USER', 'CPU%', 'MEM', 'COMMAND'],
    rows: sorted.map((p) => [String(p.pid), String(p.ppid), p.user || String(p.uid), cpuCell(p, table.intervalNs), formatBytes(p.rssBytes), commandOf(p)]),
    notes,
    unseen: processUnseen(table, ctx.isRoot, nativeLibrary().platform),
  };
}

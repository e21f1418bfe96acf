/**
 * `process`: one program by name (exact, case-insensitive; with its descendants, since
 * servers such as Ollama run children per task) or by pid: its processes, summed memory
 * and CPU, and the ports they listen on.
 */
import { nativeLibrary } from '../../native/library.js';
import { readListeningSockets, type NativeSocketTable } from '../../native/ports.js';
import { readProcessTable, type NativeProcess } from '../../native/processes.js';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatPercent, plural } from '../format.js';
import { commandOf, cpuCell, cpuPercent, matchesName, processUnseen, withDescendants } from '../process-view.js';
import type { ProcessTarget } from '../request.js';
import { socketLabel } from './ports.js';

export async function processTopic(ctx: TopicContext, target: ProcessTarget): Promise<AnswerParts> {
  // The socket walk is quick; it runs while the CPU sample waits.
  const [table, sockets] = await Promise.all([
    readProcessTable({ sampleMs: ctx.sampleMs, signal: ctx.signal }),
    readListeningSockets({ signal: ctx.signal }).catch((err: unknown) => err as Error),
  ]);
  const wanted = 'pid' in target ? `pid ${target.pid}` : `'${target.name}'`;
  const matched = new Set(
    table.processes
      .filter((p) => ('pid' in target ? p.pid === target.pid : matchesName(p, target.name)))
      .map((p) => p.pid),
  );
  const unseen = processUnseen(table, ctx.isRoot, nativeLibrary().platform);
  if (matched.size === 0) {
    return {
      topic: 'process',
      summary: 'pid' in target
        ? `no process with pid ${target.pid} is running`
        : `no process named '${target.name}' is running (matched exactly, ignoring case, against the process name, executable and argv[0])`,
      unseen,
    };
  }
  const all = withDescendants(table, matched);
  const members = table.processes.filter((p) => all.has(p.pid));
  const rss = members.reduce((s, p) => s + p.rssBytes, 0);
  const cpu = members.reduce((s, p) => s + (cpuPercent(p, table.intervalNs) ?? 0), 0);
  const children = members.length - matched.size;
  const facts: Fact[] = [
    { label: 'processes', value: `${plural(matched.size, 'match', 'matches')}${children > 0 ? ` and ${plural(children, 'descendant')}` : ''}` },
    { label: 'memory', value: `${formatBytes(rss)} resident in total` },
    { label: 'CPU', value: `${formatPercent(cpu)} of one core in total over ${(table.intervalNs / 1e9).toFixed(2)} s` },
  ];
  if (sockets instanceof Error) {
    unseen.push(`listening ports: ${sockets.message}`);
  } else {
    facts.push({ label: 'listening', value: listening(sockets, all) });
  }
  const order = (p: NativeProcess): number => (matched.has(p.pid) ? 0 : 1);
  members.sort((a, b) => order(a) - order(b) || a.pid - b.pid);
  return {
    topic: 'process',
    summary: `process ${wanted}: ${plural(members.length, 'process', 'processes')}`,
    facts,
    columns: ['PID', 'PPID', 'ROLE', 'CPU%', 'MEM', 'COMMAND'],
    rows: members.map((p) => [
      String(p.pid),
      String(p.ppid),
      matched.has(p.pid) ? 'match' : 'child',
      cpuCell(p, table.intervalNs),
      formatBytes(p.rssBytes),
      commandOf(p),
    ]),
    notes: ['CPU% is the share of one core (two busy cores: 200%); MEM is resident memory'],
    unseen,
  };
}

function listening(sockets: NativeSocketTable, pids: Set<number>): string {
  const held = sockets.sockets.filter((s) => s.pids.some((p) => pids.has(p)));
  if (held.length === 0) return 'no listening sockets';
  const labels = [...new Set(held.map(socketLabel))].sort();
  const shown = labels.slice(0, 8);
  return `${shown.join(', ')}${labels.length > shown.length ? ` and ${labels.length - shown.length} more` : ''}`;
}

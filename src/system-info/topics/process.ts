/**
 * `process`: one program by name (exact, case-insensitive; with its descendants, since
 * servers such as Ollama run children per task) or by pid: its processes, summed memory
 * and CPU, and the ports they listen on.
 */
import { nativeLibrary } from '../../native/library.js';
import { readListeningSockets, type NativeSocketTable } from '../../native/ports.js';
import { readProcessTable, type NativeProcess, type NativeProcessTable } from '../../native/processes.js';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatPercent, plural } from '../format.js';
import {
  cpuNote, cpuPercent, endedDuringSample, machineCpuSplit, matchesName, nameSome, PROCESS_COLUMNS, PROCESS_LEGEND,
  PROCESS_WIDTHS, processCells, processUnseen, withDescendants, zombieNote, type Viewer,
} from '../process-view.js';
import type { ProcessTarget } from '../request.js';
import { socketLabel, sourceFailures } from './ports.js';
import { userName } from '../users.js';

export async function processTopic(ctx: TopicContext, target: ProcessTarget): Promise<AnswerParts> {
  // The socket walk is quick; it runs while the CPU sample waits.
  const [table, sockets] = await Promise.all([
    readProcessTable({ sampleMs: ctx.sampleMs, signal: ctx.signal }),
    readListeningSockets({ signal: ctx.signal }).catch((err: unknown) => err as Error),
  ]);
  return processAnswer(table, sockets, target, { isRoot: ctx.isRoot, platform: nativeLibrary().platform });
}

/** The answer from tables already read (tests give it captured ones). */
export function processAnswer(
  table: NativeProcessTable,
  sockets: NativeSocketTable | Error,
  target: ProcessTarget,
  viewer: Viewer,
): AnswerParts {
  const wanted = 'pid' in target ? `pid ${target.pid}` : `'${target.name}'`;
  const matched = new Set(
    table.processes
      .filter((p) => ('pid' in target ? p.pid === target.pid : matchesName(p, target.name)))
      .map((p) => p.pid),
  );
  const unseen = processUnseen(table, viewer);
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
  const ended = members.filter(endedDuringSample);
  const seconds = (table.intervalNs / 1e9).toFixed(2);
  const facts: Fact[] = [
    { label: 'processes', value: `${plural(matched.size, 'match', 'matches')}${children > 0 ? ` and ${plural(children, 'descendant')}` : ''}${ended.length > 0 ? `; ${ended.length} ended during the sample` : ''}` },
    { label: 'memory', value: `${formatBytes(rss)} resident in total` },
    { label: 'CPU', value: `${formatPercent(cpu)} of one core in total over ${seconds} s` },
  ];
  if (sockets instanceof Error) {
    unseen.push(`listening ports: ${sockets.message}`);
  } else {
    const seen = listening(sockets, members, viewer.isRoot);
    facts.push({ label: 'listening', value: seen.value });
    unseen.push(...seen.unseen, ...sourceFailures(sockets));
  }
  const split = machineCpuSplit(table.machineCpu);
  if (split !== undefined) facts.push({ label: 'machine CPU', value: split });
  const order = (p: NativeProcess): number => (matched.has(p.pid) ? 0 : 1);
  members.sort((a, b) => order(a) - order(b) || a.pid - b.pid);
  const notes = [cpuNote(table), PROCESS_LEGEND];
  const zombies = zombieNote(members);
  if (zombies !== undefined) notes.push(zombies);
  return {
    topic: 'process',
    summary: `process ${wanted}: ${plural(members.length, 'process', 'processes')}`,
    facts,
    columns: ['PID', 'PPID', 'ROLE', ...PROCESS_COLUMNS],
    widths: [undefined, undefined, undefined, ...PROCESS_WIDTHS],
    rows: members.map((p) => [String(p.pid), String(p.ppid), matched.has(p.pid) ? 'match' : 'child', ...processCells(p, table)]),
    notes,
    unseen,
  };
}

/**
 * The sockets the members hold. A member whose descriptors could not be read (another
 * user's, without root) may hold sockets nobody can see it holds: that is said, with the
 * sockets of the same user whose holder is unknown, rather than "no listening sockets".
 */
function listening(sockets: NativeSocketTable, members: NativeProcess[], isRoot: boolean): { value: string; unseen: string[] } {
  const pids = new Set(members.map((p) => p.pid));
  const held = sockets.sockets.filter((s) => s.pids.some((p) => pids.has(p)));
  const labels = [...new Set(held.map(socketLabel))].sort();
  const shown = labels.slice(0, 8);
  const unseen: string[] = [];
  const hidden = members.filter((p) => sockets.deniedPids.has(p.pid));
  if (hidden.length > 0) {
    const uids = new Set(hidden.map((p) => p.uid));
    const orphans = [...new Set(sockets.sockets.filter((s) => s.pids.length === 0 && uids.has(s.uid)).map(socketLabel))].sort();
    const users = [...uids].map(userName).join(', ');
    unseen.push(
      `the sockets of ${nameSome(hidden)}: ${hidden.length === 1 ? 'its' : 'their'} descriptors could not be read (${isRoot ? 'protected' : `owned by ${users}, without root`})` +
        (orphans.length > 0 ? `; sockets of ${users} whose holder is unknown: ${orphans.slice(0, 6).join(', ')}${orphans.length > 6 ? ` and ${orphans.length - 6} more` : ''}` : ''),
    );
  }
  if (labels.length === 0) return { value: hidden.length > 0 ? 'none seen, but not all could be looked at (see below)' : 'no listening sockets', unseen };
  return { value: `${shown.join(', ')}${labels.length > shown.length ? ` and ${labels.length - shown.length} more` : ''}`, unseen };
}

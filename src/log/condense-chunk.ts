import { MAX_LINE_BYTES } from '../split/line-chunks.js';
import type { FormatInfo } from './format.js';
import { LineKind, LineParser } from './line-parser.js';
import {
  EXAMPLE_CONTINUATION_LINES,
  MAX_CONTINUATION_CHARS,
  MAX_EXAMPLE_CHARS,
  type GroupStat,
  type LogPartial,
  type Sequence,
  TRACE_WINDOW,
} from './partial.js';
import { Severity, SEVERITY_COUNT } from './severity.js';
import { TraceFinder } from './trace-id.js';

const NEWLINE = 10;
const CR = 13;

const ANSI = /(?:\x1b|\^\[)\[[\x20-\x3f]*[\x40-\x7e]?/g;

/**
 * Decodes at most about `chars` characters of bytes [s, e), without terminal colours,
 * marking a cut with `…`.
 */
function textOf(buf: Buffer, s: number, e: number, chars: number): string {
  const end = Math.min(e, s + chars * 4);
  let text = buf.toString('utf8', s, end);
  if (text.includes('\x1b') || text.includes('^[[')) text = text.replace(ANSI, '');
  return text.length > chars ? `${text.slice(0, chars)}…` : end < e ? `${text}…` : text;
}

/**
 * Condenses one chunk of whole lines (UTF-8 bytes) into a partial result. Pure: the same
 * bytes and format give the same partial in a worker or in the main thread.
 */
export function condenseChunk(buf: Buffer, info: FormatInfo): LogPartial {
  const parser = new LineParser(info);
  const groups = new GroupTable();
  const standalone = new GroupTable();
  const lead: LogPartial['lead'] = { lines: 0, lastLine: 0, texts: [], standalone: [] };
  let current: GroupStat | undefined;
  let currentIsExample = false;
  let lineNo = 0;
  let skipped = 0;
  let cut = 0;
  const sequence = new SequenceRecorder();
  const traces = info.traceKey === undefined ? undefined : new TraceFinder(buf, Buffer.from(info.traceKey));

  const length = buf.length;
  let start = 0;
  // A chunk ends with a newline unless it holds the input's last line.
  while (start < length) {
    let nl = buf.indexOf(NEWLINE, start);
    if (nl < 0) nl = length;
    let end = nl;
    if (end > start && buf[end - 1] === CR) end--;
    const s = start;
    start = nl + 1;
    lineNo++;
    if (end - s >= MAX_LINE_BYTES) cut++;

    parser.parse(buf, s, end);
    if (parser.kind === LineKind.Skip) {
      skipped++;
      continue;
    }
    if (parser.kind === LineKind.Continuation) {
      if (current !== undefined) {
        current.lines++;
        current.lastLine = lineNo;
        if (currentIsExample && current.exampleMore.length < EXAMPLE_CONTINUATION_LINES) {
          current.exampleMore.push(textOf(buf, s, end, MAX_CONTINUATION_CHARS));
        }
      } else {
        lead.lines++;
        lead.lastLine = lineNo;
        if (lead.texts.length < EXAMPLE_CONTINUATION_LINES) lead.texts.push(textOf(buf, s, end, MAX_CONTINUATION_CHARS));
        parser.parseAlone(buf, s, end);
        standalone.add(parser, buf, s, end, lineNo);
      }
      continue;
    }
    const previous = current;
    current = groups.add(parser, buf, s, end, lineNo);
    currentIsExample = current.records === 1;
    sequence.record(current, previous, traces === undefined ? 0 : traces.idIn(s, end));
  }
  lead.standalone = standalone.ordered;
  return {
    lines: lineNo,
    skipped,
    cut,
    lead,
    groups: groups.ordered,
    last: current === undefined ? null : { key: current.key, exampleRecord: currentIsExample },
    sequence: sequence.result(),
  };
}

/** Error and fault records and what came before them (see Sequence). */
class SequenceRecorder {
  readonly #pairs = new Map<string, [string, string, number, number]>();
  readonly #traces = RecentTraces.fresh();
  readonly #openTraces: [number, string, string, number][] = [];
  #firstError: string | null = null;
  #records = 0;

  /** `trace` is the hash of the record's trace id, 0 for none. */
  record(g: GroupStat, previous: GroupStat | undefined, trace: number): void {
    const index = this.#records++;
    if (g.severity <= Severity.Error) {
      const before = trace === 0 ? undefined : this.#traces.get(trace, index);
      if (before !== undefined) this.#pair(g.key, before.key, 1);
      else if (trace !== 0 && index < TRACE_WINDOW) this.#openTraces.push([trace, g.key, previous?.key ?? '', index]);
      else if (previous !== undefined) this.#pair(g.key, previous.key, 0);
      else if (index === 0) this.#firstError = g.key;
    }
    if (trace !== 0) this.#traces.set(trace, g, index);
  }

  #pair(key: string, before: string, sameTrace: number): void {
    if (before === key) return;
    const id = `${key}\u0001${before}\u0001${sameTrace}`;
    const p = this.#pairs.get(id);
    if (p === undefined) this.#pairs.set(id, [key, before, sameTrace, 1]);
    else p[3]++;
  }

  result(): Sequence {
    return {
      records: this.#records,
      pairs: [...this.#pairs.values()],
      firstError: this.#firstError,
      openTraces: this.#openTraces,
      traceLast: this.#traces.recent(this.#records),
    };
  }
}

/**
 * The traces of the last TRACE_WINDOW records, in an open-addressing table of typed arrays:
 * logs that carry an id on every line make a lookup and an insert per record, and a Map of
 * tens of thousands of number keys per chunk cost a third of the condensing.
 */
class RecentTraces {
  static readonly SLOTS = 8192; // at least four times TRACE_WINDOW: short probe runs
  static readonly PROBES = 64;
  static #spare: RecentTraces | undefined;

  /**
   * One table per thread, emptied for each chunk: its typed arrays live outside the heap,
   * and a new set per chunk made memory grow faster than the collector noticed.
   */
  static fresh(): RecentTraces {
    const t = (RecentTraces.#spare ??= new RecentTraces());
    t.#index.fill(-1);
    t.#group.fill(undefined);
    t.#compacted = 0;
    return t;
  }

  readonly #trace = new Float64Array(RecentTraces.SLOTS);
  readonly #index = new Int32Array(RecentTraces.SLOTS).fill(-1);
  readonly #group: (GroupStat | undefined)[] = new Array(RecentTraces.SLOTS);

  /** The group of the trace's last record, if it is within the window of `now`. */
  get(trace: number, now: number): GroupStat | undefined {
    const mask = RecentTraces.SLOTS - 1;
    for (let k = 0, slot = trace & mask; k < RecentTraces.PROBES; k++, slot = (slot + 1) & mask) {
      const at = this.#index[slot]!;
      if (at < 0) return undefined;
      if (now - at <= TRACE_WINDOW && this.#trace[slot] === trace) return this.#group[slot];
    }
    return undefined;
  }

  set(trace: number, g: GroupStat, now: number): void {
    // Every window, keep only the live entries, so that probe runs stay short.
    if (now - this.#compacted >= TRACE_WINDOW) this.#compact(now);
    this.#insert(trace, g, now);
  }

  #compacted = 0;

  #insert(trace: number, g: GroupStat, now: number): void {
    const mask = RecentTraces.SLOTS - 1;
    let free = -1;
    for (let k = 0, slot = trace & mask; k < RecentTraces.PROBES; k++, slot = (slot + 1) & mask) {
      const at = this.#index[slot]!;
      const stale = at < 0 || now - at > TRACE_WINDOW;
      if (!stale && this.#trace[slot] === trace) {
        free = slot;
        break;
      }
      if (stale && free < 0) free = slot;
      if (at < 0) break;
    }
    if (free < 0) free = trace & mask; // not seen with a sane window and table size
    this.#trace[free] = trace;
    this.#index[free] = now;
    this.#group[free] = g;
  }

  #compact(now: number): void {
    const live: [number, number, GroupStat][] = [];
    for (let slot = 0; slot < RecentTraces.SLOTS; slot++) {
      const at = this.#index[slot]!;
      if (at >= 0 && now - at <= TRACE_WINDOW) live.push([this.#trace[slot]!, at, this.#group[slot]!]);
    }
    this.#index.fill(-1);
    this.#group.fill(undefined);
    for (const [trace, at, g] of live) this.#insert(trace, g, at);
    this.#compacted = now;
  }

  /** [trace, group key, record index] for the records within the window of the chunk's end. */
  recent(records: number): [number, string, number][] {
    const out: [number, string, number][] = [];
    for (let slot = 0; slot < RecentTraces.SLOTS; slot++) {
      const at = this.#index[slot]!;
      if (at >= 0 && at >= records - TRACE_WINDOW) out.push([this.#trace[slot]!, this.#group[slot]!.key, at]);
    }
    return out;
  }
}

/**
 * Groups by severity and template key. One map per severity, keyed by the template's
 * 53-bit hash, so a line that joins a known group allocates nothing for its template.
 */
class GroupTable {
  readonly ordered: GroupStat[] = [];
  readonly #bySeverity: Map<number, GroupStat>[] = Array.from({ length: SEVERITY_COUNT }, () => new Map());

  add(parser: LineParser, buf: Buffer, s: number, e: number, lineNo: number): GroupStat {
    const severity: Severity = parser.severity;
    const key = parser.scanner.key();
    const map = this.#bySeverity[severity]!;
    const found = map.get(key);
    if (found !== undefined) {
      found.records++;
      found.lines++;
      found.lastLine = lineNo;
      found.lastTime = parser.time;
      return found;
    }
    const g: GroupStat = {
      key: `${severity}:${key}`,
      template: parser.scanner.text(),
      severity,
      records: 1,
      lines: 1,
      firstLine: lineNo,
      lastLine: lineNo,
      firstTime: parser.time,
      lastTime: parser.time,
      example: textOf(buf, s, e, MAX_EXAMPLE_CHARS),
      exampleMore: [],
    };
    map.set(key, g);
    this.ordered.push(g);
    return g;
  }
}

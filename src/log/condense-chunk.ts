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
import { findId, idHash, type IdSpan } from './trace-id.js';

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
  const sequence = new SequenceRecorder(buf, info.traceKey === undefined ? undefined : Buffer.from(info.traceKey));

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
    sequence.record(current, previous, s, end);
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

/**
 * Error and fault records and what came before them (see Sequence). Lines are searched
 * for a trace id only where it matters: an error's line, the lines before it that hold
 * the same id, and the chunk's last TRACE_WINDOW records (a later chunk's errors may
 * follow them). A log full of ids but with few errors pays next to nothing.
 */
class SequenceRecorder {
  readonly #pairs = new Map<string, [string, string, number, number]>();
  readonly #openTraces: [number, string, string, number][] = [];
  #firstError: string | null = null;
  #records = 0;
  /** Each record's line start and end and group, by record index. */
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #groups: GroupStat[] = [];
  readonly #buf: Buffer;
  readonly #key: Buffer | undefined;
  readonly #span: IdSpan = { start: -1, end: -1 };
  readonly #other: IdSpan = { start: -1, end: -1 };

  constructor(buf: Buffer, key: Buffer | undefined) {
    this.#buf = buf;
    this.#key = key;
  }

  record(g: GroupStat, previous: GroupStat | undefined, s: number, e: number): void {
    const index = this.#records++;
    this.#starts.push(s);
    this.#ends.push(e);
    this.#groups.push(g);
    if (g.severity > Severity.Error) return;
    const span = this.#key === undefined ? undefined : findId(this.#buf, s, e, this.#key, this.#span);
    if (span !== undefined && span.start >= 0) {
      const before = this.#earlierOnTrace(index, span);
      if (before !== undefined) return this.#pair(g.key, before.key, 1);
      if (index < TRACE_WINDOW) {
        this.#openTraces.push([idHash(this.#buf, span), g.key, previous?.key ?? '', index]);
        return;
      }
    }
    if (previous !== undefined) this.#pair(g.key, previous.key, 0);
    else if (index === 0 && (span === undefined || span.start < 0)) this.#firstError = g.key;
  }

  /** The nearest earlier record in the window whose id is the same: found by the id's bytes. */
  #earlierOnTrace(index: number, span: IdSpan): GroupStat | undefined {
    const buf = this.#buf;
    const id = buf.subarray(span.start, span.end);
    const first = Math.max(0, index - TRACE_WINDOW);
    const floor = this.#starts[first]!;
    // A negative offset would make lastIndexOf count from the buffer's end: stop at 0.
    if (index === 0 || this.#starts[index]! === 0) return undefined;
    for (let pos = buf.lastIndexOf(id, this.#starts[index]! - 1); pos >= floor; pos = pos > 0 ? buf.lastIndexOf(id, pos - 1) : -1) {
      const r = this.#recordAt(pos, first, index - 1);
      // The id must be that record's own id, not a mention of it.
      const other = findId(buf, this.#starts[r]!, this.#ends[r]!, this.#key!, this.#other);
      if (other.start === pos && other.end === span.end - span.start + pos) return this.#groups[r];
    }
    return undefined;
  }

  /** The record (between lo and hi) whose line holds byte `pos`. */
  #recordAt(pos: number, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #pair(key: string, before: string, sameTrace: number): void {
    if (before === key) return;
    const id = `${key}\u0001${before}\u0001${sameTrace}`;
    const p = this.#pairs.get(id);
    if (p === undefined) this.#pairs.set(id, [key, before, sameTrace, 1]);
    else p[3]++;
  }

  result(): Sequence {
    // The last TRACE_WINDOW records' ids: the records a later chunk's errors may follow.
    const traceLast: [number, string, number][] = [];
    if (this.#key !== undefined) {
      const seen = new Map<number, number>();
      for (let r = Math.max(0, this.#records - TRACE_WINDOW); r < this.#records; r++) {
        const span = findId(this.#buf, this.#starts[r]!, this.#ends[r]!, this.#key, this.#span);
        if (span.start < 0) continue;
        const hash = idHash(this.#buf, span);
        const at = seen.get(hash);
        if (at !== undefined) traceLast[at] = [hash, this.#groups[r]!.key, r];
        else {
          seen.set(hash, traceLast.length);
          traceLast.push([hash, this.#groups[r]!.key, r]);
        }
      }
    }
    return { records: this.#records, pairs: [...this.#pairs.values()], firstError: this.#firstError, openTraces: this.#openTraces, traceLast };
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

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
} from './partial.js';
import { Severity, SEVERITY_COUNT } from './severity.js';
import { traceIdOf } from './trace-id.js';

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
    sequence.record(current, previous, info.traces === true ? traceIdOf(latin1Line(buf, s, end)) : '');
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

/** Trace ids are ASCII: a latin1 view of the line is enough to find one. */
const latin1Line = (buf: Buffer, s: number, e: number): string =>
  (buf as Buffer & { latin1Slice(start: number, end: number): string }).latin1Slice(s, Math.min(e, s + 4096));

/** Error and fault records and what came before them (see Sequence). */
class SequenceRecorder {
  readonly #pairs = new Map<string, [string, string, number, number]>();
  readonly #traceLast = new Map<string, string>();
  readonly #openTraces: [string, string, string][] = [];
  #firstError: string | null = null;
  #records = 0;

  record(g: GroupStat, previous: GroupStat | undefined, trace: string): void {
    this.#records++;
    if (g.severity <= Severity.Error) {
      if (trace !== '') {
        const before = this.#traceLast.get(trace);
        if (before !== undefined) this.#pair(g.key, before, 1);
        else this.#openTraces.push([trace, g.key, previous?.key ?? '']);
      } else if (previous !== undefined) {
        this.#pair(g.key, previous.key, 0);
      } else if (this.#records === 1) {
        this.#firstError = g.key;
      }
    }
    if (trace !== '') {
      // Map order is the order of last occurrence: the merger keeps the most recent traces.
      this.#traceLast.delete(trace);
      this.#traceLast.set(trace, g.key);
    }
  }

  #pair(key: string, before: string, sameTrace: number): void {
    if (before === key) return;
    const id = `${key}\u0001${before}\u0001${sameTrace}`;
    const p = this.#pairs.get(id);
    if (p === undefined) this.#pairs.set(id, [key, before, sameTrace, 1]);
    else p[3]++;
  }

  result(): Sequence {
    return { pairs: [...this.#pairs.values()], firstError: this.#firstError, openTraces: this.#openTraces, traceLast: [...this.#traceLast] };
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

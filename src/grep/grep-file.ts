import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { redact } from '../redact/index.js';
import { formatCount } from '../core/text.js';
import { lineMatcher, type LineMatcher, type Occurrence } from './matcher.js';

export interface GrepQuery {
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  /** Lines shown before and after each matching line. */
  context: number;
  /** Matching lines shown at most. */
  maxMatches: number;
  /** Where this page starts: a line and a column (1-based), from an earlier answer's cursor. */
  from: { line: number; column: number };
  /** The shown text's budget, in bytes of its JSON string form (what a client hands the model). */
  maxBytes: number;
}

export interface GrepResult {
  /** Hunks of lines: `N: text` for a matching line, `N- text` for context, `--` between hunks. */
  text: string;
  /** Matching lines in the whole payload, shown or not. */
  totalMatches: number;
  /** Matching lines before this page's start. */
  matchesBefore: number;
  /** Matching lines shown (at least one of their matches). */
  shown: number;
  firstShownLine: number | undefined;
  lastShownLine: number | undefined;
  linesScanned: number;
  /** Where the next page starts (`line:column`), when matches remain after this one. */
  nextCursor: string | undefined;
  /** Why the page ended before the matches did: `maxMatches` or the byte budget. */
  stoppedBy: 'maxMatches' | 'budget' | undefined;
}

/** Lines up to this long are shown whole; a longer one shows a window around each match. */
export const LONG_LINE = 300;
/** Characters of a long line shown on each side of a match. */
const WINDOW_RADIUS = 80;
/** How far a window's edge moves outward to a separator, so that a key stays with its value for redaction. */
const EDGE_SEARCH = 48;
/** Windows shown in one long line; past it the answer gives that line's own cursor. */
const MAX_WINDOWS = 5;
/** A context line longer than LONG_LINE shows its head this long. */
const CONTEXT_HEAD = 160;
/** Matches counted in one line at most (a line of a million `a`s and the pattern `a`). */
const MAX_COUNTED = 10_000;
const READ_BYTES = 1024 * 1024;

/** Bytes a line costs inside a JSON string: escapes included, with its newline. */
const cost = (s: string): number => Buffer.byteLength(JSON.stringify(s)) - 2 + 2;

/**
 * Greps a payload file line by line, whole lines of any length, and lays out one page of
 * the answer: overlapping contexts merged into hunks, long lines shown as windows around
 * their matches with columns, everything within the byte budget. Every matching line of
 * the payload is counted, shown or not; the cursor says where the next page starts.
 */
export function grepFile(file: string, q: GrepQuery): GrepResult {
  const m = lineMatcher(q);
  const out: string[] = [];
  let used = 0;
  let total = 0;
  let before = 0;
  let shown = 0;
  let firstShown: number | undefined;
  let lastShown: number | undefined;
  let lastEmitted = 0;
  let afterLeft = 0;
  let stopped: GrepResult['stoppedBy'];
  let cursor: string | undefined;
  let lineNo = 0;
  /** The last `context` lines (the head of a long one, and its length), shown if a match follows. */
  const recent: { n: number; head: string; length: number }[] = [];

  const emit = (pieces: string[]): void => {
    for (const p of pieces) {
      out.push(p);
      used += cost(p);
    }
  };
  /** The page ends at a match not shown: the next page starts there. */
  const stop = (why: 'maxMatches' | 'budget', at: string): void => {
    stopped = why;
    cursor = at;
  };

  forEachLine(file, (raw) => {
    lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const matches = m.test(line);
    if (matches) total++;
    const startCol = lineNo === q.from.line ? q.from.column - 1 : 0;
    const onPage = matches && lineNo >= q.from.line && (startCol === 0 || m.occurrences(line, startCol, 1).length > 0);
    if (matches && !onPage) before++;
    // Once the page has stopped, lines are only counted.
    if (stopped === undefined && onPage) {
      if (shown >= q.maxMatches) {
        stop('maxMatches', `${lineNo}:${startCol + 1}`);
      } else {
        const head: string[] = [];
        const ctx = recent.filter((r) => r.n > lastEmitted);
        const firstOfHunk = ctx[0]?.n ?? lineNo;
        if (lastEmitted > 0 && firstOfHunk > lastEmitted + 1) head.push('--');
        for (const r of ctx) head.push(`${r.n}- ${contextText(r.head, r.length)}`);
        const body = matchLines(line, lineNo, startCol, m, q.maxBytes - used - head.reduce((n, p) => n + cost(p), 0));
        if (body.pieces.length === 0) {
          stop('budget', `${lineNo}:${startCol + 1}`);
        } else {
          emit(head);
          emit(body.pieces);
          shown++;
          firstShown ??= lineNo;
          lastShown = lineNo;
          lastEmitted = lineNo;
          afterLeft = q.context;
          if (body.resumeColumn !== undefined) stop('budget', `${lineNo}:${body.resumeColumn}`);
        }
      }
    } else if (stopped === undefined && afterLeft > 0) {
      const piece = `${lineNo}- ${contextText(line, line.length)}`;
      if (used + cost(piece) <= q.maxBytes) {
        emit([piece]);
        lastEmitted = lineNo;
        afterLeft--;
      } else {
        afterLeft = 0;
      }
    }
    if (q.context > 0) {
      recent.push({ n: lineNo, head: line.length <= LONG_LINE ? line : line.slice(0, CONTEXT_HEAD + EDGE_SEARCH), length: line.length });
      if (recent.length > q.context) recent.shift();
    }
  });
  return {
    text: out.length > 0 ? `${out.join('\n')}\n` : '',
    totalMatches: total,
    matchesBefore: before,
    shown,
    firstShownLine: firstShown,
    lastShownLine: lastShown,
    linesScanned: lineNo,
    nextCursor: cursor,
    stoppedBy: stopped,
  };
}

/**
 * A matching line as shown: whole when short, else a header and a window per match (from
 * `startCol` on), as many as fit in `room` bytes. `resumeColumn` is set when windows of
 * this line were left out for lack of room.
 */
function matchLines(line: string, n: number, startCol: number, m: LineMatcher, room: number): { pieces: string[]; resumeColumn: number | undefined } {
  if (line.length <= LONG_LINE) {
    const piece = `${n}: ${redact(line)}`;
    return cost(piece) <= room ? { pieces: [piece], resumeColumn: undefined } : { pieces: [], resumeColumn: undefined };
  }
  const occ = m.occurrences(line, startCol, MAX_COUNTED);
  const windows = mergeWindows(line, occ);
  const shownWindows = windows.slice(0, MAX_WINDOWS);
  const counted = occ.length >= MAX_COUNTED ? `${formatCount(MAX_COUNTED)} or more` : formatCount(occ.length);
  const pieces = [`${n}: [a line of ${formatCount(line.length)} characters; ${counted} ${occ.length === 1 ? 'match' : 'matches'}${startCol > 0 ? ` from column ${startCol + 1}` : ''}]`];
  let used = cost(pieces[0]!);
  for (let i = 0; i < shownWindows.length; i++) {
    const w = shownWindows[i]!;
    const piece = `    col ${w.columns.join(', ')}: ${w.text}`;
    if (used + cost(piece) > room) {
      return i === 0 ? { pieces: [], resumeColumn: undefined } : { pieces, resumeColumn: w.columns[0] };
    }
    pieces.push(piece);
    used += cost(piece);
  }
  if (windows.length > MAX_WINDOWS) {
    const next = windows[MAX_WINDOWS]!.columns[0]!;
    const note = `    (more matches in this line from column ${next}: ask with cursor "${n}:${next}")`;
    if (used + cost(note) <= room) pieces.push(note);
  }
  return { pieces, resumeColumn: undefined };
}

interface Window {
  /** 1-based columns of the matches it shows. */
  columns: number[];
  text: string;
}

/** Windows around the occurrences, merged where they overlap; each redacted on its own. */
function mergeWindows(line: string, occ: Occurrence[]): Window[] {
  const spans: { start: number; end: number; columns: number[] }[] = [];
  for (const o of occ) {
    const start = Math.max(0, o.index - WINDOW_RADIUS);
    const end = Math.min(line.length, o.index + Math.max(o.length, 1) + WINDOW_RADIUS);
    const last = spans[spans.length - 1];
    if (last !== undefined && start <= last.end) {
      last.end = Math.max(last.end, end);
      last.columns.push(o.index + 1);
    } else {
      if (spans.length > MAX_WINDOWS) break;
      spans.push({ start, end, columns: [o.index + 1] });
    }
  }
  return spans.map((s) => {
    const start = edge(line, s.start, -1);
    const end = edge(line, s.end, 1);
    return { columns: s.columns, text: `${start > 0 ? '…' : ''}${redact(line.slice(start, end))}${end < line.length ? '…' : ''}` };
  });
}

const SEPARATOR = /[\s,;{}[\]()&|<>]/;

/** Moves a window edge outward to the nearest separator within EDGE_SEARCH characters. */
function edge(line: string, at: number, dir: -1 | 1): number {
  for (let i = 0; i < EDGE_SEARCH; i++) {
    const p = dir < 0 ? at - i : at + i;
    if (p <= 0) return 0;
    if (p >= line.length) return line.length;
    if (SEPARATOR.test(line[dir < 0 ? p - 1 : p]!)) return p;
  }
  return at + dir * EDGE_SEARCH;
}

/** A context line as shown (from its head and full length): whole when short, else its head and how much more. */
function contextText(head: string, length: number): string {
  if (length <= LONG_LINE) return redact(head);
  const end = Math.min(edge(head, CONTEXT_HEAD, 1), head.length);
  return `${redact(head.slice(0, end))}… (${formatCount(length - end)} more characters)`;
}

/** Lines from..to (1-based, inclusive) of a payload, for the raw resource. */
export function readLines(file: string, from: number, to: number, maxChars: number): { lines: string[]; cut: boolean } {
  const lines: string[] = [];
  let chars = 0;
  let cut = false;
  let lineNo = 0;
  forEachLine(file, (line) => {
    lineNo++;
    if (lineNo < from) return true;
    if (chars + line.length > maxChars) {
      cut = true;
      // A line longer than a whole read is shown cut rather than never.
      if (lines.length === 0) lines.push(`${redact(line.slice(0, edge(line, maxChars - 200, -1)))}… [wisp: line ${lineNo} has ${formatCount(line.length)} characters; grep_raw shows windows around matches in it]`);
      return false;
    }
    lines.push(redact(line));
    chars += line.length + 1;
    return lineNo < to;
  });
  return { lines, cut };
}

/**
 * Calls `onLine` for each line of a file (without its newline), reading 1 MiB at a time;
 * stops when it returns false. A line's pieces are joined once its end is found, so a line
 * of many megabytes costs one copy, and a StringDecoder keeps a character split across two
 * reads whole.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing reads on; false stops.
export function forEachLine(file: string, onLine: (line: string) => boolean | void): void {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    const decoder = new StringDecoder('utf8');
    let pending: string[] = [];
    for (;;) {
      const n = readSync(fd, buf, 0, READ_BYTES, null);
      if (n === 0) break;
      const text = decoder.write(buf.subarray(0, n));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        pending.push(text.slice(start, nl));
        const line = pending.length === 1 ? pending[0]! : pending.join('');
        pending = [];
        if (onLine(line) === false) return;
        start = nl + 1;
      }
      if (start < text.length) pending.push(text.slice(start));
    }
    pending.push(decoder.end());
    const rest = pending.join('');
    if (rest.length > 0) onLine(rest);
  } finally {
    closeSync(fd);
  }
}

import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { redact } from '../redact/index.js';

export interface GrepQuery {
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  /** Lines shown before and after each match. */
  context: number;
  maxMatches: number;
}

export interface GrepMatch {
  line: number;
  text: string;
  before: string[];
  after: string[];
}

export interface GrepResult {
  matches: GrepMatch[];
  /** Every matching line, shown or not. */
  totalMatches: number;
  linesScanned: number;
}

/** Shown lines are cut to this: a match is a pointer, grep_raw's ranges give the rest. */
export const MAX_SHOWN_CHARS = 300;
/** Matching reads at most this much of a line, so that a regex cannot run away on a huge one. */
const MAX_MATCH_CHARS = 8192;
const READ_BYTES = 1024 * 1024;

const show = (line: string): string => redact(line.length > MAX_SHOWN_CHARS ? `${line.slice(0, MAX_SHOWN_CHARS)}…` : line);

/**
 * Greps a payload file line by line with bounded memory: every match is counted, the first
 * maxMatches are kept with their context (redacted, cut to a readable length).
 */
export function grepFile(file: string, q: GrepQuery): GrepResult {
  const test = matcher(q);
  const matches: GrepMatch[] = [];
  let total = 0;
  let lineNo = 0;
  const recent: string[] = [];
  /** Matches still collecting their `after` lines. */
  const open: GrepMatch[] = [];

  const onLine = (raw: string): void => {
    lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    for (let k = open.length - 1; k >= 0; k--) {
      const m = open[k]!;
      m.after.push(show(line));
      if (m.after.length >= q.context) open.splice(k, 1);
    }
    if (test(line.length > MAX_MATCH_CHARS ? line.slice(0, MAX_MATCH_CHARS) : line)) {
      total++;
      if (matches.length < q.maxMatches) {
        const m: GrepMatch = { line: lineNo, text: show(line), before: recent.map(show), after: [] };
        matches.push(m);
        if (q.context > 0) open.push(m);
      }
    }
    if (q.context > 0) {
      recent.push(line.length > MAX_SHOWN_CHARS * 2 ? line.slice(0, MAX_SHOWN_CHARS * 2) : line);
      if (recent.length > q.context) recent.shift();
    }
  };

  forEachLine(file, onLine);
  return { matches, totalMatches: total, linesScanned: lineNo };
}

function matcher(q: GrepQuery): (line: string) => boolean {
  if (q.regex) {
    const re = new RegExp(q.pattern, q.ignoreCase ? 'i' : '');
    return (line) => re.test(line);
  }
  if (q.ignoreCase) {
    const needle = q.pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(needle);
  }
  return (line) => line.includes(q.pattern);
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
 * stops when it returns false. A StringDecoder keeps a character split across two reads whole.
 */
function forEachLine(file: string, onLine: (line: string) => boolean | void): void {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    const decoder = new StringDecoder('utf8');
    let carry = '';
    for (;;) {
      const n = readSync(fd, buf, 0, READ_BYTES, null);
      if (n === 0) break;
      const text = carry + decoder.write(buf.subarray(0, n));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (onLine(text.slice(start, nl)) === false) return;
        start = nl + 1;
      }
      carry = text.slice(start);
    }
    carry += decoder.end();
    if (carry.length > 0) onLine(carry);
  } finally {
    closeSync(fd);
  }
}

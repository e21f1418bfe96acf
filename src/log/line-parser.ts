import type { FormatInfo } from './format.js';
import { fromLevelWord, fromPinoLevel, fromSyslogPriority, fromWords, Severity } from './severity.js';
import { templateOf } from './template.js';
import { matchTimestampAt, type TimestampMatch } from './timestamp.js';

/** A line either starts a record, continues the one before it, or is no log line at all. */
export const LineKind = { Head: 0, Continuation: 1, Skip: 2 } as const;
export type LineKind = (typeof LineKind)[keyof typeof LineKind];

/** Filled in place by parseLine, so the hot loop allocates nothing per line but strings. */
export interface ParsedLine {
  kind: LineKind;
  time: string;
  severity: Severity;
  template: string;
}

export function newParsedLine(): ParsedLine {
  return { kind: LineKind.Head, time: '', severity: Severity.Info, template: '' };
}

const LOGSHOW_ROW =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d{4})\s+(0x[0-9a-f]+)\s+([A-Za-z]+)\s+(0x[0-9a-f]+)\s+(\d+)\s+/;
const LOGSHOW_TTL = /^\d+\s+/;
const COMPACT_ROW = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) ([A-Z][a-z ]|[A-Z][a-z]) /;

const LOGSHOW_TYPES: Record<string, Severity> = {
  Default: Severity.Notice,
  Info: Severity.Info,
  Debug: Severity.Debug,
  Error: Severity.Error,
  Fault: Severity.Critical,
  Activity: Severity.Info,
  Signpost: Severity.Info,
};

const COMPACT_TYPES: Record<string, Severity> = {
  Df: Severity.Notice,
  'I ': Severity.Info,
  Db: Severity.Debug,
  'E ': Severity.Error,
  'F ': Severity.Critical,
  'A ': Severity.Info,
  Sd: Severity.Info,
};

/** log show's header, filter notice and footer: not log lines. */
export function isLogShowFrame(line: string): boolean {
  return (
    line.startsWith('Timestamp ') ||
    line.startsWith('Filtering the log data') ||
    line.startsWith('Skipping info and debug') ||
    line.startsWith('Log      - ') ||
    line.startsWith('Activity - ') ||
    line.startsWith('--------------------')
  );
}

// Stack frames and chained causes: continuation lines even in a log without timestamps.
const STACK_CONTINUATION = /^(?:\s+at |\t|\s+\.\.\. \d+ (?:more|common frames omitted)|Caused by: |\s+File ".*", line \d+)/;

const ts: TimestampMatch = { start: 0, end: 0 };

export function parseLine(line: string, info: FormatInfo, out: ParsedLine): void {
  switch (info.format) {
    case 'logshow':
      return parseLogShow(line, info, out);
    case 'logshow-compact':
      return parseCompact(line, out);
    case 'json':
      if (line.charCodeAt(0) === 123 /* { */ && parseJsonLine(line, out)) return;
      return parseGeneric(line, info, out);
    default:
      return parseGeneric(line, info, out);
  }
}

function parseLogShow(line: string, info: FormatInfo, out: ParsedLine): void {
  const m = LOGSHOW_ROW.exec(line);
  if (m === null) return continuationOrFrame(line, out);
  let msgStart = m[0].length;
  if (info.hasTtl) {
    const ttl = LOGSHOW_TTL.exec(line.slice(msgStart, msgStart + 12));
    if (ttl !== null) msgStart += ttl[0].length;
  }
  const type = m[3]!;
  out.kind = LineKind.Head;
  out.time = m[1]!;
  out.severity = LOGSHOW_TYPES[type] ?? Severity.Info;
  out.template = templateOf(line, msgStart);
}

function parseCompact(line: string, out: ParsedLine): void {
  const m = COMPACT_ROW.exec(line);
  if (m === null) return continuationOrFrame(line, out);
  out.kind = LineKind.Head;
  out.time = m[1]!;
  out.severity = COMPACT_TYPES[m[2]!] ?? Severity.Info;
  out.template = templateOf(line, m[0].length);
}

function continuationOrFrame(line: string, out: ParsedLine): void {
  out.kind = isLogShowFrame(line) ? LineKind.Skip : LineKind.Continuation;
}

/** pino, bunyan, zap, logrus, ECS, journal `-o json`: one object a line. */
function parseJsonLine(line: string, out: ParsedLine): boolean {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    return false;
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return false;
  const o = obj as Record<string, unknown>;
  const message = firstString(o, MESSAGE_KEYS);
  out.kind = LineKind.Head;
  out.time = timeOf(o);
  out.severity = jsonSeverity(o) ?? fromWords(message ?? line);
  // The message is the event; without one the line's own text is all there is.
  out.template = message === undefined ? templateOf(line) : templateOf(message);
  return true;
}

const MESSAGE_KEYS = ['msg', 'message', 'MESSAGE', 'event', 'log', 'text'];
const TIME_KEYS = ['time', 'timestamp', '@timestamp', 'ts', 't', 'date', '__REALTIME_TIMESTAMP'];

function firstString(o: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function timeOf(o: Record<string, unknown>): string {
  for (const k of TIME_KEYS) {
    const v = o[k];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return '';
}

function jsonSeverity(o: Record<string, unknown>): Severity | undefined {
  const level = o.level ?? o.lvl ?? o.severity ?? o.levelname ?? o['log.level'] ?? (o.log as Record<string, unknown> | undefined)?.level;
  if (typeof level === 'number') return fromPinoLevel(level);
  if (typeof level === 'string') {
    const n = Number(level);
    return Number.isInteger(n) && level.trim() !== '' ? fromPinoLevel(n) : fromLevelWord(level);
  }
  const priority = o.PRIORITY ?? o.priority;
  if (typeof priority === 'string' || typeof priority === 'number') {
    const p = Number(priority);
    if (Number.isInteger(p) && p >= 0 && p <= 7) return fromSyslogPriority(p);
  }
  return undefined;
}

const GLOG = /^[IWEF]\d{4} /;
const GLOG_LEVELS: Record<string, Severity> = { I: Severity.Info, W: Severity.Warning, E: Severity.Error, F: Severity.Critical };

function parseGeneric(line: string, info: FormatInfo, out: ParsedLine): void {
  let pos = 0;
  if (line.charCodeAt(0) === 0xfeff) pos = 1;
  for (let f = 0; f < info.leadingTabFields; f++) {
    const tab = line.indexOf('\t', pos);
    if (tab < 0) break;
    pos = tab + 1;
  }
  let declared: Severity | undefined;
  // Syslog priority <N> (RFC 3164/5424) and glog's level letter come before the time.
  if (line.charCodeAt(pos) === 60 /* < */) {
    const close = line.indexOf('>', pos);
    const pri = close > pos && close < pos + 5 ? Number(line.slice(pos + 1, close)) : NaN;
    if (Number.isInteger(pri) && pri >= 0 && pri < 192) {
      declared = fromSyslogPriority(pri & 7);
      pos = close + 1;
      if (line.startsWith('1 ', pos)) pos += 2;
    }
  } else if (GLOG.test(pos === 0 ? line : line.slice(pos, pos + 6))) {
    declared = GLOG_LEVELS[line[pos]!];
    pos += 1;
  }
  const prefix = pos > 0 ? line.slice(line.charCodeAt(0) === 0xfeff ? 1 : 0, pos) : '';
  if (matchTimestampAt(line, pos, ts)) {
    let msgStart = ts.end;
    while (msgStart < line.length) {
      const c = line.charCodeAt(msgStart);
      if (c === 32 || c === 9 || c === 93 /* ] */) msgStart++;
      else break;
    }
    out.kind = LineKind.Head;
    out.time = line.slice(ts.start, ts.end);
    out.severity = declared ?? declaredLevel(line, msgStart) ?? fromWords(line.slice(msgStart, msgStart + 500));
    out.template = prefix + templateOf(line, msgStart);
    return;
  }
  if (info.timestamped || STACK_CONTINUATION.test(line)) {
    out.kind = LineKind.Continuation;
    return;
  }
  out.kind = LineKind.Head;
  out.time = '';
  out.severity = declared ?? declaredLevel(line, pos) ?? fromWords(line.slice(pos, pos + 500));
  out.template = templateOf(line, pos);
}

/**
 * A level token among the first few words after the time: `ERROR`, `[warn]`, `<info>`,
 * `level=error`, GitHub's `##[error]`, logcat's single letters. A lowercase bare word
 * counts only when bracketed or keyed, so that "error" in prose falls to fromWords.
 */
function declaredLevel(line: string, start: number): Severity | undefined {
  if (line.startsWith('##[', start)) {
    const close = line.indexOf(']', start);
    if (close > 0 && close < start + 12) {
      const w = line.slice(start + 3, close);
      return w === 'error' ? Severity.Error : w === 'warning' ? Severity.Warning : w === 'debug' ? Severity.Debug : Severity.Info;
    }
  }
  let i = start;
  const limit = Math.min(line.length, start + 100);
  for (let n = 0; n < 6 && i < limit; n++) {
    while (i < limit && line.charCodeAt(i) === 32) i++;
    let j = i;
    while (j < limit && line.charCodeAt(j) !== 32) j++;
    if (j === i) break;
    const level = levelToken(line.slice(i, j));
    if (level !== undefined) return level;
    i = j;
  }
  return undefined;
}

const SINGLE_LETTER_LEVELS: Record<string, Severity> = {
  V: Severity.Debug,
  D: Severity.Debug,
  I: Severity.Info,
  W: Severity.Warning,
  E: Severity.Error,
  F: Severity.Critical,
};

function levelToken(raw: string): Severity | undefined {
  let t = raw;
  let marked = false;
  const eq = t.indexOf('=');
  if (eq > 0) {
    const key = t.slice(0, eq).toLowerCase();
    if (key !== 'level' && key !== 'lvl' && key !== 'severity' && key !== 'loglevel') return undefined;
    t = t.slice(eq + 1).replace(/^"|"$/g, '');
    marked = true;
  }
  const first = t.charCodeAt(0);
  if (first === 91 || first === 60 || first === 40) {
    t = t.slice(1);
    marked = true;
  }
  t = t.replace(/[\]>):,]+$/, '');
  if (t.length === 0 || t.length > 13) return undefined;
  if (t.length === 1) return SINGLE_LETTER_LEVELS[t];
  if (!marked && t !== t.toUpperCase()) return undefined;
  if (t.toLowerCase() === 'default') return undefined;
  return fromLevelWord(t);
}

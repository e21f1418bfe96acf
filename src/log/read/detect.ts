import { PLAIN, type FormatInfo } from '../model/format.js';
import { detectLevelColumn } from '../parse/level-column.js';
import { fromLevelWord } from '../model/severity.js';
import { isLogShowFrame, namePrefixLength } from '../parse/line-parser.js';
import { matchTimestampAt, stampFrom, type TimestampMatch } from '../parse/header-native.js';
import { traceKeyOf } from '../parse/trace-id.js';

/** Detection reads this much of each input's head, whatever the chunk size, so it is deterministic. */
export const DETECT_BYTES = 64 * 1024;
const DETECT_LINES = 400;

const LOGSHOW_HEADER = /^Timestamp\s+Thread\s+Type\s+Activity\s+PID(\s+TTL)?/;
const LOGSHOW_ROW = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}[+-]\d{4}\s+0x[0-9a-f]+\s+[A-Za-z]+\s+0x[0-9a-f]+\s+\d+\s+(\d+\s+)?/;
const COMPACT_HEADER = /^Timestamp\s+Ty\s+Process\[PID:TID\]/;
const COMPACT_ROW = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} (?:Df|I |Db|E |F |A |Sd) /;
const GH_MARKER = /##\[(?:group|endgroup|error|warning|notice|debug|section|command)\]/;
// `gh run view --log`: job<TAB>step<TAB>, then a timestamp, or nothing where a message continues.
const GH_RUN_VIEW_PREFIX = /^[^\t]+\t[^\t]*\t/;
const GH_RUN_VIEW = /^[^\t]+\t[^\t]*\t\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;
/** A BSD syslog time, `Dec  6 02:00:13` (java.util.logging's `Dec 06, 2026 1:59:18 AM` also begins with a month's name). */
const BSD_STAMP = /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d/;

/**
 * Decides an input's format from its first lines. Whole-file decisions (does a line
 * without a timestamp continue a record? does log show's TTL column exist?) must not
 * depend on where chunks fall, so they are made once, here.
 */
export function detectFormat(head: string): FormatInfo {
  // The last piece may be a cut line unless the head is the whole input; detection copes.
  const lines = head.split('\n', DETECT_LINES + 1).slice(0, DETECT_LINES);
  const named = namePrefixed(lines);
  const info = detectLayout(lines, named);
  const traceKey = traceKeyOf(head);
  const levelColumn = info.format === 'timestamped' || info.format === 'plain' ? levelColumnOf(lines, info, named) : undefined;
  const levelOnNextLine = info.format === 'timestamped' && levelColumn === undefined && levelsOnNextLine(lines);
  const messageOnNextLine = info.format === 'timestamped' && !levelOnNextLine && messagesOnNextLine(lines);
  return {
    ...info,
    ...(messageOnNextLine ? { strict: true, messageOnNextLine: true as const } : {}),
    ...(named ? { namePrefix: true as const } : {}),
    ...(levelOnNextLine ? { levelOnNextLine: true as const } : {}),
    ...(traceKey !== undefined ? { traceKey } : {}),
    ...(levelColumn !== undefined ? { levelColumn } : {}),
  };
}

/** A line that begins with a level word in capitals and a colon (`SEVERE: ...`, `INFO: ...`). */
const LEVEL_LINE = /^([A-Z]{3,8}): /;
/** Share of the head's timestamped lines that must put their level or message on the next line for that to be the format. */
const NEXT_LINE_SHARE = 0.8;

/** Whether nearly every timestamped line of the head is followed by its level line (FormatInfo.levelOnNextLine). */
function levelsOnNextLine(lines: readonly string[]): boolean {
  const m: TimestampMatch = { start: 0, end: 0 };
  let stamped = 0;
  let paired = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!matchTimestampAt(lines[i]!, 0, m)) continue;
    stamped++;
    const level = LEVEL_LINE.exec(lines[i + 1]!);
    if (level !== null && fromLevelWord(level[1]!) !== undefined) paired++;
  }
  return paired >= 3 && paired >= stamped * NEXT_LINE_SHARE;
}

/** Whether nearly every timestamped line of the head has nothing after its time but `=` (FormatInfo.messageOnNextLine). */
function messagesOnNextLine(lines: readonly string[]): boolean {
  const m: TimestampMatch = { start: 0, end: 0 };
  let stamped = 0;
  let bare = 0;
  for (const line of lines) {
    if (!matchTimestampAt(line, stampFrom(line, 0), m)) continue;
    stamped++;
    if (/^[\s=]*$/.test(line.slice(m.end))) bare++;
  }
  return bare >= 3 && bare >= stamped * NEXT_LINE_SHARE;
}

/** Share of the head's lines with a service prefix (`worker-1  | `) that makes them docker compose's output. */
const NAME_PREFIXED_SHARE = 0.8;

/** Whether the head's lines are docker compose's: a service's name and a bar before nearly every one. */
function namePrefixed(lines: readonly string[]): boolean {
  let nonBlank = 0;
  let named = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    nonBlank++;
    if (namePrefixLength(line) > 0) named++;
  }
  return nonBlank >= 3 && named >= nonBlank * NAME_PREFIXED_SHARE;
}

/**
 * The level column of the head's records: in a timestamped log, of the lines that start
 * with a timestamp; otherwise of the lines that start at column 0 (frames and other
 * indented continuation lines are no records).
 */
function levelColumnOf(headLines: readonly string[], info: FormatInfo, named: boolean): ReturnType<typeof detectLevelColumn> {
  const m: TimestampMatch = { start: 0, end: 0 };
  const lines: string[] = [];
  for (let raw of headLines) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    let line = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    for (let f = 0; f < info.leadingTabFields; f++) line = line.slice(line.indexOf('\t') + 1);
    // Behind a service's name (compose), a line is indented or blank after the name: a
    // frame under `worker-1  | Traceback ...` is no record. The column counts the name in,
    // as the parser reads it.
    const c = line.charCodeAt(named ? namePrefixLength(line) : 0);
    if (line.trim() === '' || c === 32 || c === 9 || Number.isNaN(c)) continue;
    if (info.timestamped) {
      const pos = c === 60 ? Math.max(0, line.indexOf('>') + 1) : stampFrom(line, 0);
      if (!matchTimestampAt(line, pos, m)) continue;
    }
    lines.push(line);
  }
  return detectLevelColumn(lines);
}

function detectLayout(lines: readonly string[], named: boolean): FormatInfo {
  let nonEmpty = 0;
  let logshowRows = 0;
  let frames = 0;
  let ttlRows = 0;
  let compactRows = 0;
  let jsonRows = 0;
  let jsonTimed = 0;
  let logShowJson = 0;
  let stamped = 0;
  let ghMarkers = 0;
  let ghRunView = 0;
  let ghPrefixed = 0;
  let bsd = 0;
  let logshowHeader: RegExpExecArray | null = null;
  let compactHeader = false;
  const m: TimestampMatch = { start: 0, end: 0 };
  for (let raw of lines) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    const line = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (line.trim() === '') continue;
    nonEmpty++;
    logshowHeader ??= LOGSHOW_HEADER.exec(line);
    if (COMPACT_HEADER.test(line)) compactHeader = true;
    if (isLogShowFrame(line)) frames++;
    const row = LOGSHOW_ROW.exec(line);
    if (row) {
      logshowRows++;
      if (row[1] !== undefined) ttlRows++;
    }
    if (COMPACT_ROW.test(line)) compactRows++;
    if (line.charCodeAt(0) === 123 && looksLikeJsonObject(line)) {
      jsonRows++;
      if (/"(?:time|timestamp|@timestamp|ts|t|date|__REALTIME_TIMESTAMP)"\s*:/.test(line)) jsonTimed++;
      if (/"messageType"\s*:/.test(line) && /"eventMessage"\s*:/.test(line)) logShowJson++;
    }
    if (GH_MARKER.test(line)) ghMarkers++;
    if (GH_RUN_VIEW_PREFIX.test(line)) {
      ghPrefixed++;
      if (GH_RUN_VIEW.test(line)) ghRunView++;
    }
    let pos = stampFrom(line, named ? namePrefixLength(line) : 0);
    if (line.charCodeAt(0) === 60) pos = Math.max(0, line.indexOf('>') + 1);
    if (matchTimestampAt(line, pos, m)) {
      stamped++;
      if (BSD_STAMP.test(line.slice(m.start, m.start + 16))) bsd++;
    }
  }
  if (nonEmpty === 0) return PLAIN;
  const share = (n: number): number => n / nonEmpty;
  // Rows, or rows with log show's own header and footer lines around them.
  if (logshowHeader !== null || (logshowRows >= 1 && share(logshowRows + frames) >= 0.5) || (logshowRows >= 1 && logshowRows >= stamped * 0.8)) {
    const hasTtl = logshowHeader !== null ? logshowHeader[1] !== undefined : ttlRows >= logshowRows * 0.9;
    return { format: 'logshow', label: 'log show (default style)', timestamped: true, strict: true, hasTtl, leadingTabFields: 0 };
  }
  if (compactHeader || (compactRows >= 1 && share(compactRows + frames) >= 0.5) || (compactRows >= 1 && compactRows >= stamped * 0.8)) {
    return { format: 'logshow-compact', label: 'log show (compact style)', timestamped: true, strict: true, hasTtl: false, leadingTabFields: 0 };
  }
  if (share(jsonRows) >= 0.5) {
    if (logShowJson >= jsonRows * 0.9) {
      return { format: 'logshow-json', label: 'log show (ndjson style)', timestamped: true, strict: false, hasTtl: false, leadingTabFields: 0 };
    }
    return { format: 'json', label: 'JSON lines log', timestamped: jsonTimed >= jsonRows * 0.9, strict: false, hasTtl: false, leadingTabFields: 0 };
  }
  if (ghRunView >= 2 && share(ghPrefixed) >= 0.8) {
    return { format: 'timestamped', label: 'GitHub Actions (gh run view)', timestamped: true, strict: true, hasTtl: false, leadingTabFields: 2 };
  }
  // A timestamp on a fifth of the lines (stack traces can fill the rest) makes it a timestamped log.
  if (stamped >= 2 && share(stamped) >= 0.2) {
    const label = ghMarkers > 0 ? 'GitHub Actions' : bsd >= stamped / 2 ? 'syslog' : 'timestamped log';
    // The Actions runner stamps every line it is given: a line without a stamp is part of a message.
    return { format: 'timestamped', label, timestamped: true, strict: ghMarkers > 0, hasTtl: false, leadingTabFields: 0 };
  }
  return PLAIN;
}

function looksLikeJsonObject(line: string): boolean {
  const t = line.trimEnd();
  if (!t.endsWith('}')) return false;
  try {
    const v: unknown = JSON.parse(t);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * The first DETECT_BYTES of the chunks (`bytes` in all), as one buffer: the first chunk's own bytes where it
 * holds them (a chunk is a megabyte: copying it whole to keep 64 KB cost a run 3-4 ms of
 * fresh pages), else a copy of that much alone. A view into a chunk that may be a slot,
 * filled again once its chunk is read: `decide` reads it and keeps none of it.
 */
function headOf(chunks: Buffer[], bytes: number): Buffer {
  const first = chunks[0]!;
  if (first.length >= DETECT_BYTES) return first.subarray(0, DETECT_BYTES);
  return Buffer.concat(chunks, Math.min(DETECT_BYTES, bytes));
}

/**
 * Chunks of one input, each with the input's format: the first chunks are held until
 * DETECT_BYTES have come (or the input ends), the format is decided from exactly those
 * bytes by `decide`, and then everything flows through. Whatever the chunk size, the
 * decision sees the same bytes.
 */
export async function* withFormat(
  chunks: AsyncIterable<Buffer>,
  decide: (head: Buffer) => FormatInfo,
): AsyncGenerator<{ info: FormatInfo; chunk: Buffer }> {
  const head: Buffer[] = [];
  let headBytes = 0;
  let info: FormatInfo | undefined;
  for await (const chunk of chunks) {
    if (info !== undefined) {
      yield { info, chunk };
      continue;
    }
    head.push(chunk);
    headBytes += chunk.length;
    if (headBytes < DETECT_BYTES) continue;
    info = decide(headOf(head, headBytes));
    for (const c of head.splice(0)) yield { info, chunk: c };
  }
  if (info === undefined && head.length > 0) {
    info = decide(headOf(head, headBytes));
    for (const c of head) yield { info, chunk: c };
  }
}

import type { FormatInfo } from '../model/format.js';
import { fromLevelWord, fromPinoLevel, fromSyslogPriority, fromWords, LOGSHOW_TYPES, Severity, WORDS_BYTES } from '../model/severity.js';
import { HeaderReader } from './header-native.js';
import { latin1 } from './latin1.js';
import { ANSI } from '../../core/text.js';
import { locatedLevel } from './line-shape.js';
import { TemplateScanner } from './template.js';
import { epochToIso } from './timestamp.js';

/**
 * Header fields sit in a line's first bytes: they are read from this much of it, decoded
 * as latin1 (one char a byte, so offsets match the bytes; the fields are ASCII).
 */
export const PREFIX_BYTES = 160;

/** How much of a message the word rules read when a line declares no level. */

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

const MESSAGE_KEYS = ['msg', 'message', 'MESSAGE', 'event', 'log', 'text', 'eventMessage'];
const TIME_KEYS = ['time', 'timestamp', '@timestamp', 'ts', 't', 'date', '__REALTIME_TIMESTAMP'];
/** Where JSON logs put the error a record is about: its type and message are part of the event. */
const ERROR_KEYS = ['err', 'error', 'exception', 'exc', 'error.type', 'error.message', 'exception.type', 'exception.message', 'exc_info'];

/**
 * Reads one line at a time, in place in the chunk's bytes. `header` reads a line that
 * carries the input's record header (a timestamp, a log show row, a JSON object); `plain`
 * reads a line without one that starts a record. After either, the template is in
 * `scanner` (its key always, its text on request), with `severity`, whether the line
 * declared it (`declared`), and the time.
 */
export class LineParser {
  time = '';
  severity: Severity = Severity.Info;
  /** The severity came from the line's own level field, not from its words. */
  declared = false;
  /** Where the template's text starts in the line (bytes from its start); -1 where it is not one span of it (JSON, gh run view). */
  templateAt = 0;
  /**
   * The error a JSON record carries, as `errorOf` names it, with its values ('' for none
   * and for other lines): a group's example shows it, the raw line may be cut before it.
   */
  jsonError = '';
  /** The header's message is empty: its writer put the message on the lines below (Spring's failure analysis). */
  messageBelow = false;
  /** The record that carries jsonError: its stack is looked for only when a group shows it (jsonStack). */
  #errorRecord: Record<string, unknown> | undefined;
  readonly scanner = new TemplateScanner();
  readonly #info: FormatInfo;
  readonly #header: HeaderReader;
  /** A coloured line's prefix, its colours taken out, as bytes for the header reader. */
  #uncoloured = Buffer.alloc(PREFIX_BYTES);

  constructor(info: FormatInfo) {
    this.#info = info;
    this.#header = new HeaderReader(info);
  }

  /** The stack or traceback of the error the last JSON record carried, as it holds it in one field ('' for none). */
  jsonStack(): string {
    return this.#errorRecord === undefined ? '' : stackOf(this.#errorRecord);
  }

  /** The root cause under the error the last JSON record carried, where its error's line does not name it ('' for none): see causeOf. */
  jsonCause(): string {
    return this.#errorRecord === undefined ? '' : causeOf(this.#errorRecord);
  }

  /** Does bytes [s, e) of buf carry a record header? If so, it is parsed. */
  header(buf: Buffer, s: number, e: number, prefix: string): boolean {
    this.jsonError = '';
    this.#errorRecord = undefined;
    this.messageBelow = false;
    switch (this.#info.format) {
      case 'logshow':
      case 'logshow-compact':
        return this.#row(buf, s, e, prefix);
      case 'json':
      case 'logshow-json':
        return buf[s] === 123 /* { */ && this.#json(buf, s, e);
      default:
        return this.#timestamped(buf, s, e, prefix);
    }
  }

  /** A line without a header that starts a record; `opener` is the severity its form carries. */
  plain(buf: Buffer, s: number, e: number, prefix: string, opener: Severity | undefined): void {
    this.jsonError = '';
    this.#errorRecord = undefined;
    // A JSON record among lines of another kind (a service's pino or structlog lines after a
    // build's output, or after another log) is read as one: its level, message and error.
    if (opener === undefined && buf[s] === 123 /* { */ && buf[e - 1] === 125 /* } */ && this.#json(buf, s, e)) return;
    const info = this.#info;
    const contentStart = bomLength(buf, s);
    const fields = afterTabFields(prefix, contentStart, info.leadingTabFields);
    const p = info.namePrefix ? fields + namePrefixLength(prefix.slice(fields)) : fields;
    this.time = '';
    const [pb, ps, pe] = this.#prefixBytes(buf, s, e, prefix);
    // A line without the input's header names a level in words: a lone letter there is
    // more often a progress mark (pytest's `F      [100%]`) than logcat's `E`.
    const declared = opener ?? this.#header.plainLevel(pb, ps, pe, contentStart, p) ?? accessLogLevel(prefix);
    this.declared = declared !== undefined;
    // Words are read without terminal colours, as the prefix is (tsc --pretty's `\x1b[91merror\x1b[0m`).
    this.severity = declared ?? fromWords(pb === buf ? latin1(buf, s + p, Math.min(e, s + p + WORDS_BYTES)) : uncolouredWords(buf, s, e, p));
    this.templateAt = contentStart;
    this.scanner.begin(buf).add(s + contentStart, e);
  }

  /** A row of log show's default or compact style: its time, its message type (the level), its message. */
  #row(buf: Buffer, s: number, e: number, prefix: string): boolean {
    const [pb, ps, pe] = this.#prefixBytes(buf, s, e, prefix);
    const h = this.#header;
    if (!h.read(pb, ps, pe, 0, 0)) return false;
    this.time = prefix.slice(h.timeStart, h.timeEnd);
    this.severity = h.level ?? Severity.Info;
    this.declared = true;
    this.templateAt = h.message;
    this.scanner.begin(buf).add(s + h.message, e);
    return true;
  }

  /** pino, bunyan, zap, logrus, ECS, journal `-o json`, `log show --style ndjson`: one object a line. */
  #json(buf: Buffer, s: number, e: number): boolean {
    let obj: unknown;
    try {
      obj = JSON.parse(buf.toString('utf8', s, e));
    } catch {
      return false;
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return false;
    const o = obj as Record<string, unknown>;
    this.templateAt = -1;
    if (this.#info.format === 'logshow-json') return this.#logShowJson(o, buf, s, e);
    const message = firstString(o, MESSAGE_KEYS);
    this.time = timeOf(o);
    const level = jsonSeverity(o);
    this.declared = level !== undefined;
    const error = errorOf(o);
    this.jsonError = error;
    if (error !== '') this.#errorRecord = o;
    this.severity = level ?? fromWords(`${message ?? latin1(buf, s, Math.min(e, s + WORDS_BYTES))} ${error}`);
    // The message is the event, with the error it is about; without a message, the line's own text is all there is.
    if (message === undefined && error === '') {
      this.scanner.begin(buf).add(s, e);
    } else {
      const text = error === '' ? message! : message === undefined ? error : `${message} | ${error}`;
      const bytes = Buffer.from(text, 'utf8');
      this.scanner.begin(bytes).add(0, bytes.length);
    }
    return true;
  }

  /** `log show --style ndjson`: messageType is the level, eventMessage the message, process, subsystem and category the header. */
  #logShowJson(o: Record<string, unknown>, buf: Buffer, s: number, e: number): boolean {
    const type = typeof o.messageType === 'string' ? o.messageType : undefined;
    const message = typeof o.eventMessage === 'string' ? o.eventMessage : undefined;
    this.time = typeof o.timestamp === 'string' ? o.timestamp : '';
    this.declared = type !== undefined;
    this.severity = type === undefined ? fromWords(message ?? '') : Object.hasOwn(LOGSHOW_TYPES, type) ? LOGSHOW_TYPES[type]! : Severity.Info;
    if (message === undefined) {
      this.scanner.begin(buf).add(s, e);
      return true;
    }
    const image = typeof o.processImagePath === 'string' ? o.processImagePath.slice(o.processImagePath.lastIndexOf('/') + 1) : typeof o.process === 'string' ? o.process : '';
    const sub = typeof o.subsystem === 'string' && o.subsystem !== '' ? ` [${o.subsystem}${typeof o.category === 'string' && o.category !== '' ? `:${o.category}` : ''}]` : '';
    const bytes = Buffer.from(`${image}:${sub} ${message}`, 'utf8');
    this.scanner.begin(bytes).add(0, bytes.length);
    return true;
  }

  /**
   * The bytes of a line's prefix as the parser read it: the line's own first bytes, or,
   * where its colours were taken out of the prefix, the prefix's (offsets are the prefix's).
   */
  #prefixBytes(buf: Buffer, s: number, e: number, prefix: string): [Buffer, number, number] {
    if (prefix.length === Math.min(e - s, PREFIX_BYTES)) return [buf, s, s + prefix.length];
    const written = this.#uncoloured.write(prefix, 0, 'latin1');
    return [this.#uncoloured, 0, written];
  }

  #timestamped(buf: Buffer, s: number, e: number, prefix: string): boolean {
    const info = this.#info;
    const contentStart = bomLength(buf, s);
    let fieldsEnd = afterTabFields(prefix, contentStart, info.leadingTabFields);
    if (info.namePrefix) fieldsEnd += namePrefixLength(prefix.slice(fieldsEnd));
    // A job and step (gh run view) and a service's name (compose) are part of the event; a syslog <PRI> is not.
    const [pb, ps, pe] = this.#prefixBytes(buf, s, e, prefix);
    const h = this.#header;
    if (!h.read(pb, ps, pe, contentStart, fieldsEnd)) return false;
    const msg = h.message;
    this.messageBelow = messageIsBelow(buf, s + msg, e);
    this.time = epochToIso(prefix.slice(h.timeStart, h.timeEnd));
    const level = h.level;
    this.declared = level !== undefined;
    // A message that is a program's located complaint (`dns_master_load: /etc/z/db.x:7: ...`) says it went wrong there.
    this.severity = level ?? locatedLevel(prefix.slice(msg)) ?? fromWords(latin1(buf, s + msg, Math.min(e, s + msg + WORDS_BYTES)));
    this.scanner.begin(buf);
    if (fieldsEnd > contentStart) this.scanner.add(s + contentStart, s + fieldsEnd);
    this.scanner.add(s + msg, e);
    this.templateAt = fieldsEnd > contentStart ? -1 : msg;
    return true;
  }
}

/**
 * Whether the message in bytes [from, e) is not there: blanks only, or the source fields
 * alone, ended by a spaced separator (Spring's `... LoggingFailureAnalysisReporter : `,
 * logback's `... Reporter - `). Its writer put the message on the lines below.
 */
function messageIsBelow(buf: Buffer, from: number, e: number): boolean {
  let end = e;
  while (end > from && (buf[end - 1] === 0x20 || buf[end - 1] === 0x09 || buf[end - 1] === 0x0d)) end--;
  if (end === from) return true;
  const last = buf[end - 1];
  return (last === 0x3a /* : */ || last === 0x2d /* - */ || last === 0x7c /* | */) && end - 2 >= from && (buf[end - 2] === 0x20 || buf[end - 2] === 0x09);
}

const bomLength = (buf: Buffer, s: number): number => (buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf ? 3 : 0);

/** An access log's request and status (Common Log Format: `"GET /api/cart HTTP/1.1" 502 157`). */
const ACCESS_STATUS = /"[A-Z]+ \S+ HTTP\/\d(?:\.\d)?" ([1-5])\d\d /;

/**
 * An access log's level is its status: a 5xx answer is the server's error; any other is
 * the normal course, whatever words its path holds (`GET /login-failed`).
 */
function accessLogLevel(prefix: string): Severity | undefined {
  if (prefix.indexOf(' HTTP/') < 0) return undefined;
  const m = ACCESS_STATUS.exec(prefix);
  return m === null ? undefined : m[1] === '5' ? Severity.Error : Severity.Info;
}

/** docker compose's service prefix: a name, padding, a bar (`worker-1  | `). */
const NAME_PREFIX = /^[A-Za-z][\w.-]* *\| ?/;

/** WORDS_BYTES of a coloured line's text past `from` (a place in its text without colours). */
function uncolouredWords(buf: Buffer, s: number, e: number, from: number): string {
  // Colour sequences take a few bytes each: read enough that WORDS_BYTES remain past them.
  return latin1(buf, s, Math.min(e, s + 4 * (from + WORDS_BYTES)))
    .replace(ANSI, '')
    .slice(from, from + WORDS_BYTES);
}

/** The length of a line's service prefix (FormatInfo.namePrefix), or 0. */
export function namePrefixLength(prefix: string): number {
  return NAME_PREFIX.exec(prefix)?.[0].length ?? 0;
}

/** Past `count` leading tab-separated fields (gh run view's job and step). */
function afterTabFields(prefix: string, from: number, count: number): number {
  let p = from;
  for (let f = 0; f < count; f++) {
    const tab = prefix.indexOf('\t', p);
    if (tab < 0) break;
    p = tab + 1;
  }
  return p;
}

function firstString(o: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') return v;
  }
  const fields = o.fields;
  if (fields !== null && typeof fields === 'object' && typeof (fields as Record<string, unknown>).message === 'string') {
    return (fields as Record<string, string>).message;
  }
  return undefined;
}

function timeOf(o: Record<string, unknown>): string {
  for (const k of TIME_KEYS) {
    const v = o[k];
    if (typeof v === 'string' || typeof v === 'number') return epochToIso(String(v));
  }
  return '';
}

/** An error object's `Type: message`, or undefined where it names neither. */
function named(e: Record<string, unknown>): string | undefined {
  const type = [e.type, e.name, e.class, e.kind, e.code].find((x): x is string => typeof x === 'string' && x !== '');
  const message = [e.message, e.msg, e.reason].find((x): x is string => typeof x === 'string' && x !== '');
  return type !== undefined || message !== undefined ? firstLine([type, message].filter((x) => x !== undefined).join(': ')) : undefined;
}

/** The field that holds a JSON record's error (ERROR_KEYS' first that says something), or undefined. */
function errorField(o: Record<string, unknown>): string | Record<string, unknown> | undefined {
  for (const k of ERROR_KEYS) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') return v;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const e = v as Record<string, unknown>;
      if (named(e) !== undefined || typeof e.stack === 'string') return e;
    }
  }
  return undefined;
}

/** The error a JSON record carries, as `Type: message`, or '' when it carries none. */
function errorOf(o: Record<string, unknown>): string {
  const v = errorField(o);
  if (typeof v === 'string') return firstLine(v);
  if (v !== undefined) return named(v) ?? firstLine(v.stack as string);
  const type = o['error.type'] ?? o['exception.type'];
  const message = o['error.message'] ?? o['exception.message'];
  if (typeof type === 'string' || typeof message === 'string') return firstLine([type, message].filter((x) => typeof x === 'string').join(': '));
  return '';
}

/** Python's lines between a chained traceback's parts: the exception before the first is the one the others were raised from. */
const CHAIN_MARKER = /\n(?:The above exception was the direct cause of the following exception:|During handling of the above exception, another exception occurred:)\n/;

/**
 * The root cause under a JSON record's error, as `Type: message`, where the error's own
 * line does not name it: the last of an error object's `cause` chain (Node's and pino's
 * `err.cause`), or in a traceback held as text (structlog's `exception`), the exception
 * before Python's first chain marker, or a Java stack's last `Caused by:`. '' for none.
 */
function causeOf(o: Record<string, unknown>): string {
  const v = errorField(o);
  if (v === undefined) return '';
  if (typeof v !== 'string') {
    let deepest: Record<string, unknown> | undefined;
    // To the chain's end: parsed JSON holds no cycle, and a record's line bounds its depth.
    for (let e = v; e.cause !== null && typeof e.cause === 'object' && !Array.isArray(e.cause); ) deepest = e = e.cause as Record<string, unknown>;
    if (deepest !== undefined) return named(deepest) ?? (typeof deepest.stack === 'string' ? firstLine(deepest.stack) : '');
  }
  const text = typeof v === 'string' ? v : typeof v.stack === 'string' ? v.stack : '';
  const marker = CHAIN_MARKER.exec(text);
  // Under a line that announces it, firstLine reads a traceback's part for the exception it ends with.
  if (marker !== null) return firstLine(`Traceback:\n${text.slice(0, marker.index)}`);
  const causedBy = text.lastIndexOf('\nCaused by: ');
  if (causedBy >= 0) return firstLine(text.slice(causedBy + 12));
  return '';
}

/** The stack or traceback a JSON record's error holds, when it holds one as text of several lines. */
function stackOf(o: Record<string, unknown>): string {
  for (const k of ERROR_KEYS) {
    const v = o[k];
    if (typeof v === 'string' && v.includes('\n')) return v;
    const stack = v !== null && typeof v === 'object' ? (v as Record<string, unknown>).stack : undefined;
    if (typeof stack === 'string') return stack;
  }
  return typeof o.stack === 'string' ? o.stack : '';
}

/**
 * The line of an error's text that names it: the first (`TypeError: x` above its stack),
 * unless that line announces what follows (`Traceback (most recent call last):`, as
 * structlog and python-json-logger put a traceback in one field): then its last line at
 * column 0, the exception the traceback ends with.
 */
const firstLine = (s: string): string => {
  const nl = s.indexOf('\n');
  if (nl < 0) return s;
  const first = s.slice(0, nl);
  if (!first.trimEnd().endsWith(':')) return first;
  const lines = s.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    const line = lines[i]!.trimEnd();
    if (line !== '' && line[0] !== ' ' && line[0] !== '\t') return line;
  }
  return first;
};

function jsonSeverity(o: Record<string, unknown>): Severity | undefined {
  const nested = o.log;
  const level =
    o.level ?? o.lvl ?? o.severity ?? o.levelname ?? o['log.level'] ?? o.messageType ??
    (nested !== null && typeof nested === 'object' ? (nested as Record<string, unknown>).level : undefined);
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

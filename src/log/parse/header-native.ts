/**
 * A log line's header through the native library (native/src/log_header.c, the one
 * implementation of the timestamp forms, the level column, a declared level and log show's
 * rows): where its timestamp and message are and the level it declares, read from its first bytes.
 * log_chunk.c reads the same headers from a whole chunk with the same code.
 *
 * The level words and the trouble words come from severity.ts (the one list of each), laid
 * out once per thread in a block the native code reads.
 */
import { WispError } from '../../core/errors.js';
import { addressOf, nativeLibrary, type NativeLibrary } from '../../native/library.js';
import type { FormatInfo } from '../model/format.js';
import { fromLevelWord, fromSyslogPriority, LEVEL_NAMES, LOGSHOW_TYPES, type Severity, TROUBLE_WORDS, WORDS_BYTES } from '../model/severity.js';

/** The block's layout, as native/include/wisp.h gives it (WISP_LEVEL_WORDS_*, WISP_LEVEL_WORD_BYTES, WISP_TROUBLE_*). */
export const LEVEL_WORDS_LAYOUT = { layout: 2, head: 16, troubles: 3, window: 4, syslog: 8, wordBytes: 16, troubleFirst: 256, troubleBytes: 32 } as const;
const { layout: LAYOUT, head: HEAD, troubles: TROUBLES, window: WINDOW, syslog: SYSLOG, wordBytes: WORD_BYTES, troubleFirst: FIRST, troubleBytes: TROUBLE_BYTES } =
  LEVEL_WORDS_LAYOUT;
/** Tokens whose levels tokenLevels reads (WISP_LEVEL_TOKENS). */
export const LEVEL_TOKENS = 12;
/** WISP_HEADER_FLAG_*. */
export const HEADER_FLAG = { timestamped: 1, column: 2, columnLetters: 4, logshow: 8, logshowTtl: 16, compact: 32 } as const;
/** The header reader's output (WISP_HEADER_*): where the time starts and ends, where the message starts, the level. */
export const HEADER_OUT = { timeStart: 0, timeEnd: 1, message: 2, level: 3, words: 4 } as const;
const NONE = -1;
/** WISP_LEVEL_BAD_ARGUMENT. */
export const LEVEL_BAD_ARGUMENT = -100;

function buildLevelWords(): Uint8Array {
  const types = Object.entries(LOGSHOW_TYPES);
  const words = HEAD + WORD_BYTES * (LEVEL_NAMES.length + types.length);
  // The trouble words by their first letter, so that the native search looks only at those a byte may begin.
  const troubles = TROUBLE_WORDS.map((w) => w.toLowerCase()).sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0) || (a < b ? -1 : a > b ? 1 : 0));
  // Over an ArrayBuffer of its own, so that its address stays put (addressOf).
  const block = new Uint8Array(new ArrayBuffer(words + FIRST + TROUBLE_BYTES * troubles.length));
  block[0] = LAYOUT;
  block[1] = LEVEL_NAMES.length;
  block[2] = types.length;
  block[TROUBLES] = troubles.length;
  block[WINDOW] = WORDS_BYTES & 0xff;
  block[WINDOW + 1] = WORDS_BYTES >> 8;
  for (let p = 0; p < 8; p++) block[SYSLOG + p] = fromSyslogPriority(p);
  const entry = (k: number, word: string, severity: Severity): void => {
    if (word.length > WORD_BYTES - 2 || !/^[A-Za-z]+$/.test(word)) throw new WispError('WISP_INTERNAL', `level word '${word}' does not fit the native block`);
    const at = HEAD + k * WORD_BYTES;
    block[at] = word.length;
    block[at + 1] = severity;
    for (let i = 0; i < word.length; i++) block[at + 2 + i] = word.charCodeAt(i);
  };
  for (const [k, word] of LEVEL_NAMES.entries()) entry(k, word, fromLevelWord(word)!);
  for (const [k, [word, severity]] of types.entries()) entry(LEVEL_NAMES.length + k, word, severity);
  // Per byte, 1 + the first trouble word it may begin (in either case), 0 for none; then the words, lower case.
  if (troubles.length > 255) throw new WispError('WISP_INTERNAL', `${troubles.length} trouble words do not fit the native block`);
  for (const [k, word] of troubles.entries()) {
    // The native search lowers only A-Z: a word holds no other capitals, and nothing a RegExp reads as more than itself.
    if (word.length > TROUBLE_BYTES - 1 || !/^[a-z][a-z '/:-]*$/.test(word)) throw new WispError('WISP_INTERNAL', `trouble word '${word}' does not fit the native block`);
    const first = word.charCodeAt(0);
    if (block[words + first] === 0) block[words + first] = block[words + first - 32] = k + 1;
    const at = words + FIRST + k * TROUBLE_BYTES;
    block[at] = word.length;
    for (let i = 0; i < word.length; i++) block[at + 1 + i] = word.charCodeAt(i);
  }
  return block;
}

let levelWords: { block: Uint8Array; address: number } | undefined;

/** The level words' block and its address, built once per thread. */
export function levelWordsAddress(): number {
  if (levelWords === undefined) {
    const block = buildLevelWords();
    levelWords = { block, address: addressOf(block) };
  }
  return levelWords.address;
}

/** WISP_HEADER_FLAG_* for an input's format, and its level column's token (0 without one). */
export function headerFlags(info: FormatInfo): { flags: number; column: number } {
  const col = info.levelColumn;
  const rows = info.format === 'logshow' ? HEADER_FLAG.logshow | (info.hasTtl ? HEADER_FLAG.logshowTtl : 0) : info.format === 'logshow-compact' ? HEADER_FLAG.compact : 0;
  const flags = rows | (info.timestamped ? HEADER_FLAG.timestamped : 0) | (col !== undefined ? HEADER_FLAG.column : 0) | (col?.letters ? HEADER_FLAG.columnLetters : 0);
  return { flags, column: col?.token ?? 0 };
}

const severityOf = (level: number): Severity | undefined => (level === NONE ? undefined : (level as Severity));

let headerStarts: Uint8Array | undefined;

/** The bytes a timestamped header may begin with (wisp_log_header_starts): built once per thread, by the C that reads headers. */
function headerStartsTable(): Uint8Array {
  if (headerStarts === undefined) {
    const table = new Uint8Array(256);
    if (nativeLibrary().logHeaderStarts(table, table.length) !== 0) throw new WispError('WISP_INTERNAL', 'the header reader refused to say which bytes begin a header');
    headerStarts = table;
  }
  return headerStarts;
}

/**
 * Reads headers for one format: `read` a timestamped line's, `plainLevel` the level of a
 * line without one. Results are in the fields after `read`; one reader per parser.
 */
export class HeaderReader {
  timeStart = 0;
  timeEnd = 0;
  /** Where the message starts. */
  message = 0;
  /** The level the header declares, if any. */
  level: Severity | undefined;
  readonly #out = new Int32Array(new ArrayBuffer(4 * HEADER_OUT.words));
  readonly #outAddress = addressOf(this.#out);
  readonly #words = levelWordsAddress();
  readonly #lib: NativeLibrary = nativeLibrary();
  readonly #flags: number;
  readonly #column: number;
  /** Bytes a header may begin with at fieldsEnd; undefined for log show's rows, read from their own start. */
  readonly #starts: Uint8Array | undefined;

  constructor(info: FormatInfo) {
    const { flags, column } = headerFlags(info);
    this.#flags = flags;
    this.#column = column;
    this.#starts = flags & (HEADER_FLAG.logshow | HEADER_FLAG.compact) ? undefined : headerStartsTable();
  }

  /** Whether bytes [s, e) (a line's first bytes) hold a timestamped header, read after fieldsEnd. */
  read(buf: Uint8Array, s: number, e: number, contentStart: number, fieldsEnd: number): boolean {
    // A line that cannot begin a header there (a stack frame's indentation, most lines
    // under a record's head) is answered without a call: a call costs more than the read.
    const at = s + fieldsEnd;
    if (this.#starts !== undefined && (at >= e || this.#starts[buf[at]!] === 0)) return false;
    const found = this.#lib.logHeader(this.#words, buf, buf.length, s, e, contentStart, fieldsEnd, this.#flags, this.#column, this.#outAddress);
    if (found < 0) throw new WispError('WISP_INTERNAL', `the header reader refused bytes ${s}-${e} of a ${buf.length}-byte buffer`);
    if (found === 0) return false;
    const out = this.#out;
    this.timeStart = out[HEADER_OUT.timeStart]!;
    this.timeEnd = out[HEADER_OUT.timeEnd]!;
    this.message = out[HEADER_OUT.message]!;
    this.level = severityOf(out[HEADER_OUT.level]!);
    return true;
  }

  /** The level declared from `from` by a line without the input's header (bytes [s, e), its first). */
  plainLevel(buf: Uint8Array, s: number, e: number, contentStart: number, from: number): Severity | undefined {
    const level = this.#lib.logPlainLevel(this.#words, buf, buf.length, s, e, contentStart, from, this.#flags, this.#column);
    if (level === LEVEL_BAD_ARGUMENT) throw new WispError('WISP_INTERNAL', `the level reader refused bytes ${s}-${e} of a ${buf.length}-byte buffer`);
    return severityOf(level);
  }
}

/** Where a timestamp is in a text, as offsets into it. */
export interface TimestampMatch {
  start: number;
  end: number;
}

const scratch = new Int32Array(new ArrayBuffer(4 * 2 * LEVEL_TOKENS));
let scratchAddress: number | undefined;
const scratchAt = (): number => (scratchAddress ??= addressOf(scratch));

/**
 * A line of a head (a string decoded as UTF-8) as bytes, and a char offset in it as a
 * byte offset and back: the same where the line is ASCII, as nearly every log's head is.
 */
class LineBytes {
  readonly bytes: Buffer;
  readonly line: string;
  readonly #ascii: boolean;

  constructor(line: string) {
    this.line = line;
    this.bytes = Buffer.from(line, 'utf8');
    this.#ascii = this.bytes.length === line.length;
  }

  byteAt(char: number): number {
    return this.#ascii ? char : Buffer.byteLength(this.line.slice(0, char), 'utf8');
  }

  charAt(byte: number): number {
    return this.#ascii ? byte : this.bytes.toString('utf8', 0, byte).length;
  }
}

/** The last line made bytes: detection asks several things of each head line in turn. */
let last: LineBytes | undefined;
const bytesOf = (line: string): LineBytes => (last?.line === line ? last : (last = new LineBytes(line)));

/** Whether a timestamp starts at char `pos` of `line` (optionally in `[...]`): its span in `out`. */
export function matchTimestampAt(line: string, pos: number, out: TimestampMatch): boolean {
  const l = bytesOf(line);
  const found = nativeLibrary().logTimestamp(l.bytes, l.bytes.length, 0, l.bytes.length, l.byteAt(pos), scratchAt());
  if (found < 0) throw new WispError('WISP_INTERNAL', 'the timestamp reader refused a line');
  if (found === 0) return false;
  out.start = l.charAt(scratch[0]!);
  out.end = l.charAt(scratch[1]!);
  return true;
}

/**
 * Where a line's timestamp may start, from char `pos`: past the level letter Ruby's Logger
 * writes before its bracketed time, past Redis's process id and role letter, past
 * Erlang/OTP's report kind.
 */
export function stampFrom(line: string, pos: number): number {
  const l = bytesOf(line);
  const at = nativeLibrary().logStampFrom(l.bytes, l.bytes.length, 0, l.bytes.length, l.byteAt(pos));
  if (at < 0) throw new WispError('WISP_INTERNAL', 'the timestamp reader refused a line');
  return l.charAt(at);
}

/**
 * For each of a line's first LEVEL_TOKENS tokens (blanks or bars between), the level word
 * it holds as a level column would read it (`words[k]`) and the level letter it is (`letters[k]`,
 * logcat's V D I W E F A), undefined for none; returns how many tokens the line has (at most LEVEL_TOKENS).
 */
export function tokenLevels(line: string, words: (Severity | undefined)[], letters: (string | undefined)[]): number {
  const l = bytesOf(line);
  const n = nativeLibrary().logTokenLevels(levelWordsAddress(), l.bytes, l.bytes.length, 0, l.bytes.length, scratchAt());
  if (n < 0) throw new WispError('WISP_INTERNAL', 'the level reader refused a line');
  for (let k = 0; k < n; k++) {
    words[k] = severityOf(scratch[k]!);
    const letter = scratch[LEVEL_TOKENS + k]!;
    letters[k] = letter < 0 ? undefined : String.fromCharCode(letter);
  }
  return n;
}

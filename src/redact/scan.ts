/**
 * The redaction scan's tables, and the scan itself through the native library: which rule
 * conditions hold in a text (conditions.ts). The scan (native/src/redact_scan.c, the one
 * implementation of its checks) steps an Aho-Corasick automaton over every keyword (ASCII,
 * case-insensitive) beside a run automaton (run-events.ts) over the shapes that
 * keyword-less rules need (digit groups, base64 runs, IBAN starts), checks each keyword
 * hit's surroundings, and runs a shape's check where the run automaton says it could hold.
 * Any byte >= 0x80 is a separator, so the result is the same for a raw line and for the
 * string decoded from it.
 *
 * This module builds what the scan reads, once per thread: the automata, the byte classes,
 * the thresholds, each rule's signals. It lays them out in one block (wisp.h gives the
 * layout) that the native scan reads and that no one else writes but the scan's stamps.
 */
import type { Condition, Context, Shape as ShapeName } from './conditions.js';
import { builtOnce } from './built-tables.js';
import { buildRunAutomaton } from './run-events.js';
import { WispError } from '../core/errors.js';
import { nativeLibrary, addressOf, type NativeLibrary } from '../native/library.js';

// ---------- byte classes ----------

const table = (test: (c: number) => boolean): Uint8Array => {
  const t = new Uint8Array(256);
  for (let c = 0; c < 128; c++) t[c] = test(c) ? 1 : 0;
  return t;
};
const ch = (s: string): number => s.charCodeAt(0);
const isUpperCode = (c: number): boolean => c >= 65 && c <= 90;
const isLowerCode = (c: number): boolean => c >= 97 && c <= 122;
const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;
const isAlnumCode = (c: number): boolean => isUpperCode(c) || isLowerCode(c) || isDigitCode(c);

const DIGIT = table(isDigitCode);
const ALNUM = table(isAlnumCode);
const UPPER = table(isUpperCode);
const HEX = table((c) => isDigitCode(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70));
const BASE64 = table((c) => isAlnumCode(c) || c === ch('+') || c === ch('/'));
/** `[A-Za-z0-9_.-]`: what key names are made of. */
const IDENT = table((c) => isAlnumCode(c) || c === ch('_') || c === ch('.') || c === ch('-'));
/** `[A-Za-z0-9_-]`: flag names. */
const WORD_DASH = table((c) => isAlnumCode(c) || c === ch('_') || c === ch('-'));
/** What generated credentials are made of. */
const TOKEN = table((c) => isAlnumCode(c) || '_.~+/=-'.includes(String.fromCharCode(c)));
const BLANK = table((c) => c === 32 || c === 9);
/** Where a URL's authority ends. */
const URL_STOP = table((c) => c <= 32 || '/?"\'<>'.includes(String.fromCharCode(c)));
/** Joins digit groups: `555-123 4567`, `1.2.3.4`, `(555)`, `+44`. */
const DIGIT_JOIN = table((c) => ' .-()+'.includes(String.fromCharCode(c)));
const EMAIL_LOCAL = table((c) => isAlnumCode(c) || '._%+-'.includes(String.fromCharCode(c)));
const DOMAIN = table((c) => isAlnumCode(c) || c === ch('.') || c === ch('-'));
const KEY_LINE = table((c) => BASE64[c] === 1 || ' \t\r"\',='.includes(String.fromCharCode(c)));

/** Base64 runs this long are checked for upper case, lower case and a digit or `+` `/` (AWS secret keys, key material). */
const BASE64_RUN = 40;
/** Hex digits before a `-` (Mailgun and Mailchimp keys). */
const HEX_RUN = 32;
/** `[A-Za-z0-9_-]` before a `.` (Discord tokens). */
const TOKEN_DOT_RUN = 24;

// ---------- IBAN countries (ISO 13616 lengths; 0: not a country) ----------

const IBAN_LENGTHS =
  'AD24AE23AL28AT20AZ28BA20BE16BG22BH22BI27BR29BY28CH21CR22CY28CZ24DE22DJ27DK18DO28EE20EG29ES24FI18FK18FO18FR27GB22GE22GI23GL18GR27GT28HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20LU20LV21LY25MC27MD24ME22MK19MN20MR27MT31MU30NI28NL18NO15OM23PK24PL28PS29PT25QA29RO24RS22RU33SA24SC31SD18SE24SI19SK24SM27SO23ST25SV28TL23TN24TR26UA29VA22VG24XK20YE30';
const IBAN_LENGTH = new Uint8Array(26 * 26);
for (let i = 0; i < IBAN_LENGTHS.length; i += 4) {
  IBAN_LENGTH[(IBAN_LENGTHS.charCodeAt(i) - 65) * 26 + IBAN_LENGTHS.charCodeAt(i + 1) - 65] = Number(IBAN_LENGTHS.slice(i + 2, i + 4));
}
/** The country's IBAN length, 0 when it has none: the screen and the IBAN rule read this one table. */
export function ibanLength(country: string): number {
  if (!/^[A-Z]{2}$/.test(country)) return 0;
  return IBAN_LENGTH[(country.charCodeAt(0) - 65) * 26 + country.charCodeAt(1) - 65]!;
}


// ---------- contexts and shapes (their order is wisp.h's WISP_SCAN_CONTEXT_* and WISP_SCAN_SHAPE_*) ----------

export const CONTEXT_CODES = ['any', 'assign', 'flag', 'spaced', 'line', 'quote', 'xml', 'named', 'url-at', 'email', 'scheme', 'tail', 'vendor'] as const;
const codeOf = (c: Context): number => CONTEXT_CODES.indexOf(c.kind);
const paramOf = (c: Context): number => (c.kind === 'scheme' || c.kind === 'tail' ? c.min : 0);

export const SHAPES: readonly ShapeName[] = ['base64-40', 'hex32-dash', 'token-dot', 'card', 'ssn', 'phone', 'ipv4', 'iban', 'key-material-line'];
const shapeIndex = (s: ShapeName): number => SHAPES.indexOf(s);

// ---------- the digit walk's thresholds ----------

/** The digit walk's first test, in numbers the run automaton reads too: a card's digits, a `+` and 8 digits, three dots, a national number's 9 digits, five pairs. */
const CARD_DIGITS = 13;
const PLUS_DIGITS = 8;
const QUAD_DOTS = 3;
const NATIONAL_DIGITS = 9;
const PAIRS = 5;

const isWordCode = (c: number): boolean => isAlnumCode(c) || c === ch('_');
const charTable = (chars: string): Uint8Array => table((c) => chars.includes(String.fromCharCode(c)));
/** What each rule's lookbehind forbids before its first digit group (besides word characters). */
const BEFORE_CARD = charTable('.,-');
const BEFORE_IP = charTable('.-');
const BEFORE_SSN = charTable('.-:/');
const BEFORE_PHONE = charTable('+-./:');

/** The byte classes the native scan reads, in the bit order of wisp.h's WISP_CC_* (bit k: the k-th). */
const CLASSES = {
  DIGIT, ALNUM, UPPER, LOWER: table(isLowerCode), WORD: table(isWordCode), HEX, BASE64, IDENT, WORD_DASH, TOKEN, BLANK, URL_STOP,
  DIGIT_JOIN, EMAIL_LOCAL, DOMAIN, KEY_LINE, BEFORE_CARD, BEFORE_IP, BEFORE_SSN, BEFORE_PHONE,
};
export const CHAR_CLASS_NAMES = Object.keys(CLASSES);
/** Each byte's classes as bits. */
const CHAR_CLASS = ((): Uint32Array => {
  const out = new Uint32Array(256);
  Object.values(CLASSES).forEach((t, bit) => {
    for (let c = 0; c < 256; c++) out[c]! |= t[c]! << bit;
  });
  return out;
})();

// ---------- where a shape check could hold ----------

// Its inputs are this module's constants: the stored key's builder code covers them.
const RUNS = builtOnce('runs', '', () => buildRunAutomaton({
  base64: BASE64,
  wordDash: WORD_DASH,
  digit: DIGIT,
  upper: UPPER,
  digitJoin: DIGIT_JOIN,
  base64Run: BASE64_RUN,
  hexRun: HEX_RUN,
  tokenDotRun: TOKEN_DOT_RUN,
  // The fewest digits that the first test's clauses on digits (but the `+` one) let through.
  digits: Math.min(CARD_DIGITS, NATIONAL_DIGITS, 2 * PAIRS),
  digitsWithPlus: PLUS_DIGITS,
  dots: QUAD_DOTS,
}));

// ---------- the keyword automaton ----------

/** The keyword automaton over `words` (lower case, ASCII): what the scan steps and reads its hits from. */
interface KeywordAutomaton {
  /** Row offsets: `rows[row | column]` is the next state's row (its state << shift). */
  rows: Uint32Array;
  shift: number;
  /** States from this one have hits. */
  firstHit: number;
  /** Each byte's column (0: a character in no keyword). */
  column: Uint8Array;
  /** Per state with hits (from firstHit): its words' indexes, at flat[hitStart, hitEnd). */
  hitStart: Int32Array;
  hitEnd: Int32Array;
  flat: Int32Array;
}

/**
 * Aho-Corasick over the words, case-insensitive: trie, failure links, full transition
 * table (breadth first), then states renumbered so that those with hits come last (the
 * hot loop tests `state >= firstHit`).
 */
function buildKeywordAutomaton(words: readonly string[]): KeywordAutomaton {
  const children: Map<number, number>[] = [new Map()];
  const own: number[][] = [[]];
  words.forEach((word, id) => {
    let state = 0;
    for (const character of word) {
      const code = character.charCodeAt(0);
      if (code >= 128) throw new RangeError(`keyword ${JSON.stringify(word)} is not ASCII`);
      let target = children[state]!.get(code);
      if (target === undefined) {
        target = children.length;
        children.push(new Map());
        own.push([]);
        children[state]!.set(code, target);
      }
      state = target;
    }
    own[state]!.push(id);
  });
  const states = children.length;
  if (states > 0xffff) throw new RangeError('too many keyword states');
  const next = new Int32Array(states * 128);
  const fail = new Int32Array(states);
  const outputs: number[][] = own.map((o) => [...o]);
  const order: number[] = [0];
  for (let c = 0; c < 128; c++) {
    const target = children[0]!.get(c) ?? 0;
    next[c] = target;
    if (target !== 0) order.push(target);
  }
  for (let head = 1; head < order.length; head++) {
    const state = order[head]!;
    const failRow = fail[state]! * 128;
    outputs[state]!.push(...outputs[fail[state]!]!);
    // The failure state's row, then the state's own children over it (in character order,
    // as the breadth-first numbering needs).
    next.copyWithin(state * 128, failRow, failRow + 128);
    for (const [c, target] of [...children[state]!].sort((a, b) => a[0] - b[0])) {
      fail[target] = next[failRow + c]!;
      next[state * 128 + c] = target;
      order.push(target);
    }
  }
  // Renumbered breadth first, so the shallow states that ordinary text keeps to share
  // cache lines; the table has one column per character that occurs in a keyword (all
  // others, and every byte >= 0x80, lead back to the root).
  const renumber = new Int32Array(states);
  let low = 0;
  for (const s of order) if (outputs[s]!.length === 0) renumber[s] = low++;
  let high = low;
  for (const s of order) if (outputs[s]!.length > 0) renumber[s] = high++;
  const symbols = [...new Set(words.flatMap((w) => [...w]))].sort();
  const shift = symbols.length < 64 ? 6 : 7;
  const column = new Uint8Array(256);
  symbols.forEach((symbol, k) => {
    const code = symbol.charCodeAt(0);
    column[code] = k + 1;
    if (code >= 97 && code <= 122) column[code - 32] = k + 1; // case-insensitive
  });
  // States are kept as their row's offset (state << shift): one shift less a byte.
  const rows = new Uint32Array(states << shift);
  for (let s = 0; s < states; s++) {
    for (const symbol of symbols) {
      const code = symbol.charCodeAt(0);
      rows[(renumber[s]! << shift) | column[code]!] = renumber[next[s * 128 + code]!]! << shift;
    }
  }
  const hitStart = new Int32Array(states - low);
  const hitEnd = new Int32Array(states - low);
  const flat: number[] = [];
  for (let s = 0; s < states; s++) {
    if (outputs[s]!.length === 0) continue;
    const at = renumber[s]! - low;
    hitStart[at] = flat.length;
    flat.push(...outputs[s]!);
    hitEnd[at] = flat.length;
  }
  return { rows, shift, firstHit: low, column, hitStart, hitEnd, flat: Int32Array.from(flat) };
}


// ---------- the block the native scan reads ----------

/** The block's header words (wisp.h's WISP_SCAN_* indexes, in order). */
const W = {
  layout: 0, bytes: 1, generation: 2, keywordRows: 3, keywordShift: 4, firstHit: 5, classes: 6, runRows: 7, runShift: 8, firstEvent: 9, runEvents: 10,
  hitStart: 11, hitEnd: 12, entryContext: 13, entryParam: 14, entrySignal: 15, entryLength: 16, signals: 17, sufficient: 18, shapeSignal: 19,
  conjOfStart: 20, conjOfEnd: 21, conjIds: 22, partStart: 23, partEnd: 24, parts: 25, stamp: 26, charClass: 27, ibanLength: 28,
  base64Run: 29, hexRun: 30, tokenDotRun: 31, cardDigits: 32, plusDigits: 33, quadDots: 34, nationalDigits: 35, pairs: 36,
} as const;
/** wisp.h's WISP_SCAN_LAYOUT and WISP_SCAN_HEAD. */
export const SCAN_LAYOUT = { layout: 1, head: 48, words: W } as const;

type Array32 = Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;

/** Lays the arrays out after the header (each at a multiple of 8), the numbers in it: one ArrayBuffer, so that its memory never moves. */
function layOut(numbers: Partial<Record<keyof typeof W, number>>, arrays: Partial<Record<keyof typeof W, Array32>>): Int32Array {
  let bytes = SCAN_LAYOUT.head * 4;
  const at = new Map<keyof typeof W, number>();
  for (const [name, array] of Object.entries(arrays) as [keyof typeof W, Array32][]) {
    at.set(name, bytes);
    bytes += Math.ceil(array.byteLength / 8) * 8;
  }
  const buffer = new ArrayBuffer(bytes);
  const head = new Int32Array(buffer, 0, SCAN_LAYOUT.head);
  for (const [name, array] of Object.entries(arrays) as [keyof typeof W, Array32][]) {
    const offset = at.get(name)!;
    new Uint8Array(buffer, offset, array.byteLength).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    head[W[name]] = offset;
  }
  for (const [name, value] of Object.entries(numbers) as [keyof typeof W, number][]) head[W[name]] = value;
  head[W.layout] = SCAN_LAYOUT.layout;
  head[W.bytes] = bytes;
  return head;
}

interface Entry {
  context: number;
  param: number;
  /** The signal this hit raises. */
  signal: number;
  length: number;
}

/**
 * Signals are what a scan reports: each keyword condition (words and context), each shape,
 * each part of an `all` condition. A rule runs when one of its signals was raised, or
 * every part of one of its `all` conditions.
 */
interface CompiledRule {
  signals: number[];
  conjunctions: number[][];
}

export class Scanner {
  readonly #rules: readonly CompiledRule[];
  /** The block's header (over the whole block's ArrayBuffer): what the native scan reads, its generation and stamps what it writes. */
  readonly #block: Int32Array;
  readonly #address: number;
  readonly #stamp: Int32Array;
  /** Loaded at the first scan: a thread that only builds rules loads no native code. */
  #native: NativeLibrary | undefined;

  constructor(ruleConditions: readonly (readonly Condition[])[]) {
    const signalIds = new Map<string, number>();
    const sufficient: number[] = [];
    const entries: { word: string; context: Context; signal: number }[] = [];
    const shapeSignal = new Int32Array(SHAPES.length).fill(-1);
    const signalFor = (key: string, isSufficient: boolean, words: readonly string[], context: Context | undefined): number => {
      let id = signalIds.get(key);
      if (id === undefined) {
        id = signalIds.size;
        signalIds.set(key, id);
        sufficient.push(isSufficient ? 1 : 0);
        if (context !== undefined) for (const word of words) entries.push({ word: word.toLowerCase(), context, signal: id });
      }
      return id;
    };
    const keywordKey = (words: readonly string[], context: Context, part: boolean): string => JSON.stringify([part, [...words].sort(), context]);
    this.#rules = ruleConditions.map((conditions) => {
      const rule: CompiledRule = { signals: [], conjunctions: [] };
      if (conditions.length === 0) throw new Error('every rule needs a condition: the screen depends on it');
      for (const c of conditions) {
        if (c.kind === 'keyword') rule.signals.push(signalFor(keywordKey(c.words, c.context, false), true, c.words, c.context));
        else if (c.kind === 'shape') {
          const id = signalFor(`shape:${c.shape}`, true, [], undefined);
          shapeSignal[shapeIndex(c.shape)] = id;
          rule.signals.push(id);
        } else rule.conjunctions.push(c.parts.map((p) => signalFor(keywordKey(p.words, p.context, true), false, p.words, p.context)));
      }
      return rule;
    });
    const signals = signalIds.size;
    // Each distinct `all` condition once; per signal, the conditions it is a part of.
    const seen = new Set<string>();
    const conjunctions = this.#rules.flatMap((r) => r.conjunctions).filter((c) => !seen.has(String(c)) && seen.add(String(c)));
    const conjOfStart = new Int32Array(signals);
    const conjOfEnd = new Int32Array(signals);
    const conjIds: number[] = [];
    for (let s = 0; s < signals; s++) {
      conjOfStart[s] = conjIds.length;
      conjunctions.forEach((parts, id) => {
        if (parts.includes(s)) conjIds.push(id);
      });
      conjOfEnd[s] = conjIds.length;
    }
    const partStart = Int32Array.from(conjunctions, (_, id) => conjunctions.slice(0, id).reduce((n, p) => n + p.length, 0));
    const partEnd = Int32Array.from(conjunctions, (p, id) => partStart[id]! + p.length);

    const words = entries.map((e) => e.word);
    const k = builtOnce('keywords', JSON.stringify(words), () => buildKeywordAutomaton(words));
    // The run automaton's rows as row offsets (state << shift), as the keyword rows are.
    if (RUNS.next.length > 0x10000) throw new RangeError('too many run states for 16-bit rows');
    // Loops, not Array.from with a callback: this runs in every thread as its code loads.
    const runRows = new Uint16Array(RUNS.next.length);
    for (let r = 0; r < runRows.length; r++) runRows[r] = RUNS.next[r]! << RUNS.shift;
    const classes = new Uint16Array(256);
    for (let c = 0; c < 256; c++) classes[c] = k.column[c]! | (RUNS.classOf[c]! << 8);
    const flat = k.flat;
    const entryContext = new Int8Array(flat.length);
    const entryParam = new Int32Array(flat.length);
    const entrySignal = new Int32Array(flat.length);
    const entryLength = new Int32Array(flat.length);
    for (let e = 0; e < flat.length; e++) {
      const entry = entries[flat[e]!]!;
      entryContext[e] = codeOf(entry.context);
      entryParam[e] = paramOf(entry.context);
      entrySignal[e] = entry.signal;
      entryLength[e] = entry.word.length;
    }
    this.#block = layOut(
      {
        keywordShift: k.shift, firstHit: k.firstHit, runShift: RUNS.shift, firstEvent: RUNS.firstEvent, signals,
        base64Run: BASE64_RUN, hexRun: HEX_RUN, tokenDotRun: TOKEN_DOT_RUN, cardDigits: CARD_DIGITS, plusDigits: PLUS_DIGITS,
        quadDots: QUAD_DOTS, nationalDigits: NATIONAL_DIGITS, pairs: PAIRS,
      },
      {
        keywordRows: k.rows,
        // Each byte's column in the keyword table and class in the run automaton, in one read.
        classes,
        runRows,
        runEvents: RUNS.events,
        hitStart: k.hitStart,
        hitEnd: k.hitEnd,
        entryContext,
        entryParam,
        entrySignal,
        entryLength,
        sufficient: Uint8Array.from(sufficient),
        shapeSignal,
        conjOfStart,
        conjOfEnd,
        conjIds: Int32Array.from(conjIds),
        partStart,
        partEnd,
        parts: Int32Array.from(conjunctions.flat()),
        stamp: new Int32Array(signals),
        charClass: CHAR_CLASS,
        ibanLength: IBAN_LENGTH,
      },
    );
    this.#stamp = new Int32Array(this.#block.buffer, this.#block[W.stamp], signals);
    this.#address = addressOf(this.#block);
  }

  /**
   * A copy of the block, for a native scan that runs beside this thread's (on another
   * thread): its stamps its own, read and written only by that scan. Passed by address
   * (addressOf); the array keeps the memory alive.
   */
  blockCopy(): Int32Array {
    const whole = this.#block.buffer.slice(0);
    return new Int32Array(whole, 0, this.#block.length);
  }

  /** Whether any rule may change `bytes[start, end)`. Allocates nothing. */
  any(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
    return this.#scan(bytes, start, end, 0) === 1;
  }

  /** For each rule (in construction order), whether it may change the text. */
  rulesToRun(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
    this.#scan(bytes, start, end, 1);
    const generation = this.#block[W.generation];
    const fired = (s: number): boolean => this.#stamp[s] === generation;
    const run = new Uint8Array(this.#rules.length);
    this.#rules.forEach((rule, r) => {
      if (rule.signals.some(fired) || rule.conjunctions.some((parts) => parts.every(fired))) run[r] = 1;
    });
    return run;
  }

  /**
   * `any` over each line of `bytes[start, end)` (split at `\n`, a `\r` before it left out),
   * into `out` (1: the line may hold a secret): one native call for a chunk's lines. Returns
   * how many lines there were; `out` must have room for them (one byte per line).
   */
  screenLines(bytes: Uint8Array, start: number, end: number, out: Uint8Array): number {
    const lines = (this.#native ??= nativeLibrary()).redactScreenLines(this.#address, bytes, bytes.length, start, end, out, out.length);
    if (lines < 0) throw new WispError('WISP_INTERNAL', `the redaction screen refused bytes ${start}-${end} of a ${bytes.length}-byte buffer (room for ${out.length} lines)`);
    return lines;
  }

  #scan(bytes: Uint8Array, start: number, end: number, collect: number): number {
    const found = (this.#native ??= nativeLibrary()).redactScan(this.#address, bytes, bytes.length, start, end, collect);
    if (found < 0) throw new WispError('WISP_INTERNAL', `the redaction scan refused bytes ${start}-${end} of a ${bytes.length}-byte buffer`);
    return found;
  }
}

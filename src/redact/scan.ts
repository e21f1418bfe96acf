/**
 * One pass over a text's bytes that finds which rule conditions hold (conditions.ts): an
 * Aho-Corasick automaton over every keyword (ASCII, case-insensitive), a check of each
 * keyword hit's surroundings, and the shapes that keyword-less rules need (digit groups,
 * base64 runs, IBAN starts). Run over UTF-8 bytes; any byte >= 0x80 is a separator, so the
 * result is the same for a raw line and for the string decoded from it.
 *
 * Linear time: the automata step once per byte; a keyword hit looks at a bounded window
 * (or, for `url-at`, a window that later hits do not scan again); a run that a shape check
 * walks is walked once, when the run automaton (run-events.ts) says it could hold.
 */
import type { Condition, Context, Shape as ShapeName } from './conditions.js';
import { builtOnce } from './built-tables.js';
import { buildRunAutomaton, RunEvent } from './run-events.js';

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

// ---------- contexts ----------

const CONTEXT_CODES = ['any', 'assign', 'flag', 'spaced', 'line', 'quote', 'xml', 'named', 'url-at', 'email', 'scheme', 'tail', 'vendor'] as const;
const codeOf = (c: Context): number => CONTEXT_CODES.indexOf(c.kind);
/** Context kinds as numbers for the hot path (the order of CONTEXT_CODES). */
const enum C {
  Any,
  Assign,
  Flag,
  Spaced,
  Line,
  Quote,
  Xml,
  Named,
  UrlAt,
  Email,
  Scheme,
  Tail,
  Vendor,
}

const paramOf = (c: Context): number => (c.kind === 'scheme' || c.kind === 'tail' ? c.min : 0);

const SHAPES: readonly ShapeName[] = ['base64-40', 'hex32-dash', 'token-dot', 'card', 'ssn', 'phone', 'ipv4', 'iban', 'key-material-line'];
/** Indexes into SHAPES, for the hot path. */
const enum Shape {
  Base64,
  Hex32Dash,
  TokenDot,
  Card,
  Ssn,
  Phone,
  Ipv4,
  Iban,
  KeyMaterialLine,
}
const shapeIndex = (s: ShapeName): number => SHAPES.indexOf(s);
// Bits the digit-group walk sets.
const CARD_BIT = 1;
const SSN_BIT = 2;
const PHONE_BIT = 4;
const IPV4_BIT = 8;

/** Public IPv4 by its first two octets (validators.ts says why these ranges stay). */
function publicPrefix(a: number, b: number): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

/** The last few digit groups of a run, for the layout checks (reused: no allocation per scan). */
const RING = 8; // a power of two: slots are taken with a mask
const groupLength = new Int32Array(RING);
const groupFirst = new Int32Array(RING);
const groupValue = new Int32Array(RING);
/** The characters between a group and the one before (for the first group: the joining characters before it). */
const gapLength = new Int32Array(RING);
const gapFirst = new Int32Array(RING);
const gapLast = new Int32Array(RING);
/** For the first group of a run: the byte before its joining characters (-1 at the start). */
let before = -1;

const isWordCode = (c: number): boolean => isAlnumCode(c) || c === ch('_');

/** digitRun's first test, in numbers the run automaton reads too: a card's digits, a `+` and 8 digits, three dots, a national number's 9 digits. */
const CARD_DIGITS = 13;
const PLUS_DIGITS = 8;
const QUAD_DOTS = 3;
const NATIONAL_DIGITS = 9;
const PAIRS = 5;

/**
 * The run of digits and joining characters from `i` (its first digit), handed to
 * digitGroups only when its groups could make a layout. First test: 13 digits (a card),
 * 8 digits after a `+`, three dots, five pairs, or two groups of three or more digits and 9
 * digits in all (an SSN, a national phone). Then, but for a `+`, each `may` below: what
 * one layout needs of its groups' lengths, gaps and leading digits, less than digitGroups
 * checks (no lookbehind but before a card's first group), so every run where digitGroups
 * finds that layout goes on. Dates, times, ids and private addresses rarely do.
 */
function digitRun(bytes: Uint8Array, i: number, start: number, end: number, out: { bits: number }): void {
  let j = i;
  let digits = 0;
  let dots = 0;
  let plus = i > start && bytes[i - 1] === PLUS;
  let afterPlus = 0; // digits after the run's first `+`: the `+` layout counts from a `+`
  let long = 0;
  let pairs = 0;
  let may = false;
  let chain = 0; // groups joined by gaps of at most two characters, as digitGroups chains them
  let prevLength = 0;
  let prevBefore = 0;
  let prevLeading = -1;
  let cardDigits = -1;
  let quad = 0;
  let value1 = 0; // the values of the last three groups of at most three digits, latest first
  let value2 = 0;
  let value3 = 0;
  let pairRun = 0;
  let gap = 0; // the characters between the previous group and this one
  let single = -1; // the one character before this group, -1 when the gap is not one character
  let prevSingle = -1;
  let prevGapFirst = -1; // the first character before the previous group
  let gapFirst = -1;
  for (let first = true; ; first = false) {
    const groupStart = j;
    const leading = bytes[j]! - 48;
    while (j < end && DIGIT[bytes[j]!]) j++;
    const length = j - groupStart;
    digits += length;
    if (plus) afterPlus += length;
    if (length >= 3) long++;
    else if (length === 2) pairs++;
    chain = first || gap > 2 ? 1 : chain + 1;
    // Cards: groups joined by one space or dash, from a group starting with 2-6 (the first
    // one not after a word, `.`, `,` or `-`).
    const cardStart = leading >= 2 && leading <= 6 && (!first || i === start || (!isWordCode(bytes[i - 1]!) && !BEFORE_CARD[bytes[i - 1]!]));
    cardDigits = (single === SPACE || single === DASH) && cardDigits >= 0 ? cardDigits + length : cardStart ? length : -1;
    // a.b.c.d, public by a and b
    quad = length <= 3 ? (single === DOT && quad > 0 ? quad + 1 : 1) : 0;
    if (quad >= 4 && publicPrefix(value3, value2)) may = true;
    if (length <= 3) {
      value3 = value2;
      value2 = value1;
      value1 = digitValue(bytes, groupStart, j);
    }
    // 0d dd dd dd dd
    pairRun = length === 2 ? ((single === SPACE || single === DOT) && pairRun > 0 ? pairRun + 1 : 1) : 0;
    if (cardDigits >= CARD_DIGITS || pairRun >= PAIRS) may = true;
    // SSN 3-2-4, (ddd) ddd-dddd, ddd-ddd-dddd, 0dd ddd ddd: three chained groups, one space
    // or dash before the last; with a dot, only ddd.ddd.dddd and (ddd) ddd.dddd.
    else if (chain >= 3 && length >= 3 && length <= 4 && prevLength >= 2 && prevLength <= 4 && prevBefore >= 2 && prevBefore <= 5) {
      if (single === SPACE || single === DASH) may = true;
      else if (single === DOT && ((prevBefore === 3 && prevLength === 3 && length === 4 && prevSingle === DOT) || (prevGapFirst === CLOSE && prevLength >= 3))) may = true;
    }
    // 0ddd dddddd(dd)
    else if (chain >= 2 && length >= 6 && length <= 8 && prevLength >= 3 && prevLength <= 5 && prevLeading === 0 && (single === SPACE || single === DASH)) may = true;
    prevBefore = prevLength;
    prevLength = length;
    prevLeading = leading;
    // The gap to the next group, if there is one.
    const gapFrom = j;
    for (; j < end && DIGIT_JOIN[bytes[j]!]; j++) {
      if (bytes[j] === DOT) dots++;
      else if (bytes[j] === PLUS) plus = true;
    }
    if (j >= end || !DIGIT[bytes[j]!]) break;
    prevSingle = single;
    prevGapFirst = gapFirst;
    gap = j - gapFrom;
    single = gap === 1 ? bytes[gapFrom]! : -1;
    gapFirst = bytes[gapFrom]!;
  }
  const withPlus = afterPlus >= PLUS_DIGITS;
  const firstTest = withPlus || digits >= CARD_DIGITS || dots >= QUAD_DOTS || pairs >= PAIRS || (long >= 2 && digits >= NATIONAL_DIGITS);
  if (firstTest && (withPlus || may)) digitGroups(bytes, i, start, end, out);
}

function digitValue(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let j = from; j < to; j++) value = value * 10 + bytes[j]! - 48;
  return value;
}

/**
 * Walks the digit groups that start at `i` (a digit) and returns where they end, with the
 * shapes found in `bits`. Each layout is checked when a group ends, over the last few groups.
 */
function digitGroups(bytes: Uint8Array, i: number, start: number, end: number, out: { bits: number }): number {
  groups = 0;
  chained = 0;
  let cardDigits = -1; // digits since a group that may start a card, over single space or dash gaps
  let plusDigits = -1; // digits since a `+`
  // The joining characters right before the first group (`(555)`, `+44`).
  let lead = i;
  while (lead > start && lead > i - 2 && DIGIT_JOIN[bytes[lead - 1]!]) lead--;
  before = lead > start ? bytes[lead - 1]! : -1;
  let gap = i - lead;
  let first = gap > 0 ? bytes[lead]! : 0;
  let last = gap > 0 ? bytes[i - 1]! : 0;
  let plusPending = last === PLUS;
  let j = i;
  while (j < end) {
    const c = bytes[j]!;
    if (DIGIT[c]) {
      let len = 0;
      let value = 0;
      const leading = c - 48;
      while (j < end && DIGIT[bytes[j]!]) {
        if (value < 100000) value = value * 10 + (bytes[j]! - 48);
        len++;
        j++;
      }
      const at = groups & (RING - 1);
      groupLength[at] = len;
      groupFirst[at] = leading;
      groupValue[at] = value;
      gapLength[at] = gap;
      gapFirst[at] = first;
      gapLast[at] = last;
      if (groups > 0 && gap > 2) {
        chained = 0;
        cardDigits = -1;
        plusDigits = -1;
      }
      if (plusPending) {
        plusDigits = 0;
        plusPending = false;
      }
      groups++;
      chained++;
      // Cards: groups joined by one space or dash, from a group no word, dot, comma or dash precedes.
      const joined = chained > 1 && gap === 1 && (last === SPACE || last === DASH);
      if (!joined) cardDigits = -1;
      if (cardDigits >= 0) cardDigits += len;
      else if (leading >= 2 && leading <= 6 && clean(0, BEFORE_CARD)) cardDigits = len;
      if (cardDigits >= 13) out.bits |= CARD_BIT;
      if (plusDigits >= 0) {
        plusDigits += len;
        if (plusDigits >= 8) out.bits |= PHONE_BIT;
      }
      checkLayouts(out);
      gap = 0;
      first = 0;
      last = 0;
      continue;
    }
    if (!DIGIT_JOIN[c]) break;
    if (gap === 0) first = c;
    gap++;
    last = c;
    if (c === PLUS) plusPending = true;
    j++;
  }
  return j;
}

const SPACE = 0x20;
const DASH = 0x2d;
const DOT = 0x2e;
const PLUS = 0x2b;
const CLOSE = 0x29;
const charTable = (chars: string): Uint8Array => table((c) => chars.includes(String.fromCharCode(c)));
/** What each rule's lookbehind forbids before its first digit group (besides word characters). */
const BEFORE_CARD = charTable('.,-');
const BEFORE_IP = charTable('.-');
const BEFORE_SSN = charTable('.-:/');
const BEFORE_PHONE = charTable('+-./:');

/** The groups seen so far in the current run, and how many of the last are joined by short gaps. */
let groups = 0;
let chained = 0;
const slot = (back: number): number => (groups - 1 - back) & (RING - 1);
const len = (back: number): number => (back < chained ? groupLength[slot(back)]! : -1);
const firstDigit = (back: number): number => groupFirst[slot(back)]!;
/** The one character before group `back`, or -1 when the gap is not one character. */
const single = (back: number): number => (gapLength[slot(back)] === 1 ? gapLast[slot(back)]! : -1);

/**
 * Whether group `back` (from the last) may start a match: the character before it is not
 * a word character nor one that the rule's lookbehind forbids.
 */
function clean(back: number, forbidden: Uint8Array): boolean {
  if (back >= chained) return false;
  const g = slot(back);
  const c = gapLength[g] === 0 ? before : gapLast[g]!;
  if (c === -1) return true;
  if (gapLength[g] === 0 && isWordCode(c)) return false;
  return forbidden[c] !== 1;
}

/** The layouts that end at the last group. */
function checkLayouts(out: { bits: number }): void {
  // Each layout's last group has a length of its own: most groups end none.
  const last = len(0);
  if (chained >= 4 && last <= 3) {
    // a.b.c.d: 1-3 digits each, no leading zero, at most 255, public, not a network (d = 0).
    let quad = clean(3, BEFORE_IP);
    for (let b = 0; b < 4 && quad; b++) {
      const l = len(b);
      const v = groupValue[slot(b)]!;
      if (l > 3 || v > 255 || (l > 1 && firstDigit(b) === 0)) quad = false;
      if (b < 3 && single(b) !== DOT) quad = false;
    }
    if (quad && groupValue[slot(0)] !== 0 && publicPrefix(groupValue[slot(3)]!, groupValue[slot(2)]!)) out.bits |= IPV4_BIT;
  }
  if (chained >= 3 && (last === 3 || last === 4)) {
    const sep = single(0);
    const a = len(2);
    const b = len(1);
    const c = len(0);
    // SSN: 3-2-4 joined by the same space or dash.
    if (a === 3 && b === 2 && c === 4 && (sep === SPACE || sep === DASH) && single(1) === sep && clean(2, BEFORE_SSN)) out.bits |= SSN_BIT;
    const mid = b >= 3 && b <= 4 && c >= 3 && c <= 4;
    // (ddd) ddd-dddd: the area code in parentheses.
    const g1 = slot(1);
    const paren = gapLast[slot(2)] === 0x28 && gapFirst[g1] === 0x29 && gapLength[g1]! <= 2;
    if (paren && mid && a >= 2 && a <= 5 && (sep === SPACE || sep === DOT || sep === DASH)) out.bits |= PHONE_BIT;
    // ddd-ddd-dddd (and 1-ddd-ddd-dddd), one separator throughout.
    if (a === 3 && b === 3 && c === 4 && single(1) === sep && (sep === DASH || sep === DOT || (sep === SPACE && len(3) === 1))) {
      if (clean(2, BEFORE_PHONE) || (len(3) === 1 && firstDigit(3) === 1 && single(2) === sep && clean(3, BEFORE_PHONE))) out.bits |= PHONE_BIT;
    }
    // 0dd(dd) ddd(d) ddd(d): a trunk prefix.
    const trunkSep = single(1);
    if (mid && firstDigit(2) === 0 && a >= 3 && a <= 5 && (trunkSep === SPACE || trunkSep === DASH) && (sep === SPACE || sep === DASH) && clean(2, BEFORE_PHONE)) out.bits |= PHONE_BIT;
  }
  if (chained >= 2 && last >= 6 && last <= 8) {
    // 0ddd dddddd(dd): a trunk prefix, then the subscriber number in one group.
    const sep = single(0);
    const a = len(1);
    const b = len(0);
    if (firstDigit(1) === 0 && a >= 3 && a <= 5 && b >= 6 && b <= 8 && (sep === SPACE || sep === DASH) && clean(1, BEFORE_PHONE)) out.bits |= PHONE_BIT;
  }
  if (chained >= 5 && last === 2) {
    // 0d dd dd dd dd
    const sep = single(0);
    let pairs = firstDigit(4) === 0 && (sep === SPACE || sep === DOT) && clean(4, BEFORE_PHONE);
    for (let b = 0; b < 5 && pairs; b++) if (len(b) !== 2 || (b < 4 && single(b) !== sep)) pairs = false;
    if (pairs) out.bits |= PHONE_BIT;
  }
}

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
const RUN_CLASS = RUNS.classOf;
const RUN_NEXT = RUNS.next;
const RUN_SHIFT = RUNS.shift;
const FIRST_EVENT = RUNS.firstEvent;
const RUN_EVENTS = RUNS.events;

// ---------- the automaton ----------

/** The states of both automata, into and out of a stepper. */
let keywordState = 0;
let runState = 0;

/**
 * The hot loop: steps the keyword automaton (`keywordRows`, rows of `1 << shift` over
 * `classes & 0xff`) and the run automaton (over `classes >> 8`) from `from` to the first
 * byte where the keyword state has hits or the run state is an event, and returns where
 * (`end` when none). Made once per scanner, so that its tables are constants of the
 * closure: the compiler then reads them without checks in the loop. States are kept as
 * their row's offset, one shift less a byte.
 */
function stepper(keywordRows: Uint32Array, shift: number, classes: Uint16Array, firstHit: number): (bytes: Uint8Array, from: number, end: number) => number {
  // Loops, not Array.from with a callback: this runs in every thread as its code loads.
  if (RUN_NEXT.length > 0x10000) throw new RangeError('too many run states for 16-bit rows');
  const runRows = new Uint16Array(RUN_NEXT.length);
  for (let k = 0; k < RUN_NEXT.length; k++) runRows[k] = RUN_NEXT[k]! << RUN_SHIFT;
  const byteClasses = classes;
  const firstHitRow = firstHit << shift;
  const firstEventRow = FIRST_EVENT << RUN_SHIFT;
  return (bytes, from, end) => {
    let state = keywordState << shift;
    let runs = runState << RUN_SHIFT;
    let i = from;
    for (; i < end; i++) {
      const c = byteClasses[bytes[i]!]!;
      state = keywordRows[state | (c & 0xff)]!;
      runs = runRows[runs | (c >> 8)]!;
      if (state >= firstHitRow || runs >= firstEventRow) break;
    }
    keywordState = state >> shift;
    runState = runs >> RUN_SHIFT;
    return i;
  };
}

/** The keyword automaton over `words` (lower case, ASCII): what a Scanner steps and reads its hits from. */
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
  /** Steps both automata to the next byte where either has something to say. */
  readonly #step: (bytes: Uint8Array, from: number, end: number) => number;
  /** States >= this one have keyword hits. */
  readonly #firstHitState: number;
  readonly #hitStart: Int32Array;
  readonly #hitEnd: Int32Array;
  readonly #entryContext: Int8Array;
  readonly #entryParam: Int32Array;
  readonly #entrySignal: Int32Array;
  readonly #entryLength: Int32Array;
  /** Whether a signal is enough on its own (else it is a part of an `all` condition). */
  readonly #sufficient: Uint8Array;
  readonly #shapeSignal: Int32Array;
  readonly #rules: readonly CompiledRule[];
  /** For each signal that is a part of `all` conditions: those conditions' parts. */
  readonly #conjunctionsOf: readonly (readonly number[][])[];
  readonly #signalCount: number;
  /** Per-scan state, reused: a signal fired in this scan when its stamp is the scan's generation. */
  readonly #stamp: Int32Array;
  #generation = 0;
  #urlNoAtBefore = 0;
  readonly #digits = { bits: 0 };

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
    const seen = new Set<string>();
    const conjunctions = this.#rules.flatMap((r) => r.conjunctions).filter((c) => !seen.has(String(c)) && seen.add(String(c)));
    this.#conjunctionsOf = Array.from({ length: signalIds.size }, (_, signal) => conjunctions.filter((parts) => parts.includes(signal)));
    this.#signalCount = signalIds.size;
    this.#sufficient = Uint8Array.from(sufficient);
    this.#shapeSignal = shapeSignal;
    this.#stamp = new Int32Array(this.#signalCount);

    const words = entries.map((e) => e.word);
    const k = builtOnce('keywords', JSON.stringify(words), () => buildKeywordAutomaton(words));
    this.#firstHitState = k.firstHit;
    // Each byte's column in the keyword table and class in the run automaton, in one read.
    const classes = Uint16Array.from(k.column, (column, c) => column | (RUN_CLASS[c]! << 8));
    this.#step = stepper(k.rows, k.shift, classes, k.firstHit);
    this.#hitStart = k.hitStart;
    this.#hitEnd = k.hitEnd;
    const flat = k.flat;
    this.#entryContext = Int8Array.from(flat, (e) => codeOf(entries[e]!.context));
    this.#entryParam = Int32Array.from(flat, (e) => paramOf(entries[e]!.context));
    this.#entrySignal = Int32Array.from(flat, (e) => entries[e]!.signal);
    this.#entryLength = Int32Array.from(flat, (e) => entries[e]!.word.length);
  }

  /** Whether any rule may change `bytes[start, end)`. Allocates nothing. */
  any(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
    return this.#scan(asBuffer(bytes), start, end, false);
  }

  /** For each rule (in construction order), whether it may change the text. */
  rulesToRun(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
    this.#scan(asBuffer(bytes), start, end, true);
    const fired = (s: number): boolean => this.#stamp[s] === this.#generation;
    const run = new Uint8Array(this.#rules.length);
    this.#rules.forEach((rule, r) => {
      if (rule.signals.some(fired) || rule.conjunctions.some((parts) => parts.every(fired))) run[r] = 1;
    });
    return run;
  }

  /**
   * The scan. `collect`: record every signal in #stamp. Otherwise stop at the first
   * sufficient signal, or the part that completes an `all` condition.
   */
  #scan(bytes: Uint8Array, start: number, end: number, collect: boolean): boolean {
    ++this.#generation;
    this.#urlNoAtBefore = start;
    const firstHit = this.#firstHitState;
    const shapes = this.#shapeSignal;
    const step = this.#step;
    keywordState = 0;
    runState = 0;
    for (let i = start; i < end; i++) {
      i = step(bytes, i, end);
      if (i === end) break;
      const state = keywordState;
      if (state >= firstHit && this.#hits(state - firstHit, bytes, i, start, end, collect)) return true;
      if (runState < FIRST_EVENT) continue;
      const events = RUN_EVENTS[runState - FIRST_EVENT]!;
      if (events & RunEvent.Escape) {
        // `\n`, `\r`, `\t` escapes: the rules see the letter as whitespace (escapes.ts), so
        // does the keyword scan; the runs count it as the letter it is (no event can follow).
        if (isEscape(bytes, i, end)) {
          keywordState = 0;
          i++;
          runState = RUN_NEXT[(runState << RUN_SHIFT) | RUN_CLASS[bytes[i]!]!]!;
        }
        continue;
      }
      if (events & RunEvent.Base64 && base64Runs(bytes, i + 1 - BASE64_RUN, start, end) && this.#raise(shapes[Shape.Base64]!, collect)) return true;
      if (events & RunEvent.HexDash && runBefore(bytes, i, start, HEX, HEX_RUN) && this.#raise(shapes[Shape.Hex32Dash]!, collect)) return true;
      if (events & RunEvent.TokenDot && runBefore(bytes, i, start, WORD_DASH, TOKEN_DOT_RUN) && this.#raise(shapes[Shape.TokenDot]!, collect)) return true;
      if (events & RunEvent.Iban && ibanStart(bytes, i, start, end) && this.#raise(shapes[Shape.Iban]!, collect)) return true;
      if (events & RunEvent.Digits) {
        const digits = this.#digits;
        digits.bits = 0;
        digitRun(bytes, firstDigitOfRun(bytes, i, start), start, end, digits);
        if (digits.bits !== 0 && this.#digitShapes(digits.bits, collect)) return true;
      }
    }
    if (end - start <= 256 && keyMaterialLine(bytes, start, end) && this.#raise(shapes[Shape.KeyMaterialLine]!, collect)) return true;
    return false;
  }

  #digitShapes(bits: number, collect: boolean): boolean {
    const shapes = this.#shapeSignal;
    if (bits & CARD_BIT && this.#raise(shapes[Shape.Card]!, collect)) return true;
    if (bits & SSN_BIT && this.#raise(shapes[Shape.Ssn]!, collect)) return true;
    if (bits & PHONE_BIT && this.#raise(shapes[Shape.Phone]!, collect)) return true;
    return (bits & IPV4_BIT) !== 0 && this.#raise(shapes[Shape.Ipv4]!, collect);
  }

  /** Records a signal; true when the scan may stop (a sufficient signal, not collecting). */
  #raise(signal: number, collect: boolean): boolean {
    if (signal < 0) return false;
    this.#stamp[signal] = this.#generation;
    if (this.#sufficient[signal] === 1) return !collect;
    // A part: its conditions may now hold whole.
    if (collect) return false;
    for (const parts of this.#conjunctionsOf[signal]!) {
      let all = true;
      for (const part of parts) if (this.#stamp[part] !== this.#generation) all = false;
      if (all) return true;
    }
    return false;
  }

  #hits(hitState: number, bytes: Uint8Array, i: number, start: number, end: number, collect: boolean): boolean {
    const stamp = this.#stamp;
    const generation = this.#generation;
    for (let e = this.#hitStart[hitState]!, stop = this.#hitEnd[hitState]!; e < stop; e++) {
      const signal = this.#entrySignal[e]!;
      if (stamp[signal] === generation) continue;
      const kwEnd = i + 1;
      const kwStart = kwEnd - this.#entryLength[e]!;
      if (this.#context(this.#entryContext[e]!, this.#entryParam[e]!, bytes, kwStart, kwEnd, start, end) && this.#raise(signal, collect)) return true;
    }
    return false;
  }

  #context(code: number, param: number, bytes: Uint8Array, kwStart: number, kwEnd: number, start: number, end: number): boolean {
    switch (code as C) {
      case C.Any:
        return true;
      case C.Assign: {
        let j = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), IDENT);
        if (j < end && bytes[j] === 0x5c) j++;
        if (j < end && (bytes[j] === 0x22 || bytes[j] === 0x27)) j++;
        if (j < end && bytes[j] === 0x5d) j++;
        j = skip(bytes, j, Math.min(end, j + 4), BLANK);
        return j < end && (bytes[j] === 0x3d || bytes[j] === 0x3a);
      }
      case C.Flag: {
        const from = identStart(bytes, kwStart, start, WORD_DASH, 42);
        if (from < 0 || bytes[from] !== 0x2d) return false;
        const j = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), WORD_DASH);
        return j < end && BLANK[bytes[j]!] === 1;
      }
      case C.Spaced: {
        // The key is an identifier (`aws_secret_access_key`, `apiToken`), not a word of prose.
        const from = identStart(bytes, kwStart, start, IDENT, 40);
        let j = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), IDENT);
        if (from < 0 || !compound(bytes, from, j)) return false;
        const blanks = j;
        j = skip(bytes, j, Math.min(end, j + 4), BLANK);
        if (j === blanks) return false;
        if (j < end && (bytes[j] === 0x22 || bytes[j] === 0x27)) j++;
        return skip(bytes, j, Math.min(end, j + 16), TOKEN) - j >= 16;
      }
      case C.Line: {
        const from = identStart(bytes, kwStart, start, IDENT, 40);
        if (from < 0) return false;
        // Before the key: blanks and at most one short word (`ENV`, `export`, `set`), then the line start.
        let j = from;
        const floor = Math.max(start, from - 16);
        while (j > floor && (BLANK[bytes[j - 1]!] || isUpperCode(bytes[j - 1]!) || isLowerCode(bytes[j - 1]!))) j--;
        if (j > start && bytes[j - 1] !== 0x0a) return false;
        // After it: blanks, one word, blanks, the line end.
        let k = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), IDENT);
        const blanks = k;
        k = skip(bytes, k, Math.min(end, k + 8), BLANK);
        if (k === blanks || k >= end) return false;
        const word = k;
        while (k < end && k - word < 512 && bytes[k]! > 32) k++;
        k = skip(bytes, k, end, BLANK);
        return k >= end || bytes[k] === 0x0d || bytes[k] === 0x0a;
      }
      case C.Quote: {
        const j = skip(bytes, kwEnd, Math.min(end, kwEnd + 4), BLANK);
        return j > kwEnd && j < end && (bytes[j] === 0x22 || bytes[j] === 0x27);
      }
      case C.Xml: {
        // A tag's name: `<password`, `</password`, or after a namespace, `<ns:ApiKey` (a
        // subsystem's `[com.apple.apsd:connection]` has a colon but no tag).
        const from = identStart(bytes, kwStart, start, IDENT, 64);
        if (tagOpensBefore(bytes, from, start)) return true;
        if (from <= start || bytes[from - 1] !== 0x3a) return false;
        const ns = identStart(bytes, from - 1, start, WORD_DASH, 30);
        return ns < from - 1 && tagOpensBefore(bytes, ns, start);
      }
      case C.Named: {
        const from = identStart(bytes, kwStart, start, IDENT, 64);
        if (from < 0) return false;
        let j = from;
        if (j > start && (bytes[j - 1] === 0x22 || bytes[j - 1] === 0x27)) j--;
        j = skipBack(bytes, j, Math.max(start, j - 4), BLANK);
        if (j <= start || (bytes[j - 1] !== 0x3d && bytes[j - 1] !== 0x3a)) return false;
        j--;
        if (j > start && (bytes[j - 1] === 0x22 || bytes[j - 1] === 0x27)) j--;
        j = skipBack(bytes, j, Math.max(start, j - 4), BLANK);
        if (j > start && (bytes[j - 1] === 0x22 || bytes[j - 1] === 0x27)) j--;
        return endsWithWord(bytes, j, start, 'name') || endsWithWord(bytes, j, start, 'key');
      }
      case C.UrlAt: {
        if (kwEnd < this.#urlNoAtBefore) return false;
        const limit = Math.min(end, kwEnd + 2048);
        for (let j = kwEnd; j < limit; j++) {
          const c = bytes[j]!;
          if (c === 0x40) return true;
          if (URL_STOP[c]) {
            this.#urlNoAtBefore = j;
            return false;
          }
        }
        return limit < end; // a very long authority: let the rules decide
      }
      case C.Email: {
        if (kwStart <= start || !EMAIL_LOCAL[bytes[kwStart - 1]!]) return false;
        let dot = false;
        let letters = 0;
        for (let j = kwEnd; j < end && DOMAIN[bytes[j]!]; j++) {
          const c = bytes[j]!;
          if (c === 0x2e) {
            dot = true;
            letters = 0;
          } else if (dot && (isUpperCode(c) || isLowerCode(c))) {
            if (++letters >= 2) return true;
          } else letters = 0;
        }
        return false;
      }
      case C.Scheme: {
        const j = skip(bytes, kwEnd, Math.min(end, kwEnd + 4), BLANK);
        return j > kwEnd && skip(bytes, j, Math.min(end, j + param), TOKEN) - j >= param;
      }
      case C.Tail:
        return skip(bytes, kwEnd, Math.min(end, kwEnd + param), TOKEN) - kwEnd >= param;
      case C.Vendor: {
        let run = 0;
        for (let j = kwEnd, limit = Math.min(end, kwEnd + 256); j < limit; j++) {
          if (TOKEN[bytes[j]!]) {
            if (++run >= 16) return true;
          } else run = 0;
        }
        return false;
      }
      default:
        return true;
    }
  }
}

/**
 * The scan reads Buffers only (a view, when given another Uint8Array): its loop then sees
 * one kind of array, whether the screen or redact() calls it, and is compiled for that one.
 */
function asBuffer(bytes: Uint8Array): Uint8Array {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The first index at or after `from` (below `limit`) whose byte is not in `cls`. */
function skip(bytes: Uint8Array, from: number, limit: number, cls: Uint8Array): number {
  let j = from;
  while (j < limit && cls[bytes[j]!]) j++;
  return j;
}

function skipBack(bytes: Uint8Array, from: number, floor: number, cls: Uint8Array): number {
  let j = from;
  while (j > floor && cls[bytes[j - 1]!]) j--;
  return j;
}

/** `<` or `</` ends right before `at` (after `start`): a tag's name begins there. */
function tagOpensBefore(bytes: Uint8Array, at: number, start: number): boolean {
  if (at <= start) return false;
  return bytes[at - 1] === 0x3c || (bytes[at - 1] === 0x2f && at - 1 > start && bytes[at - 2] === 0x3c);
}

/** Where the run of `cls` bytes holding `at` begins, or -1 when it reaches further back than `max`. */
function identStart(bytes: Uint8Array, at: number, start: number, cls: Uint8Array, max: number): number {
  const floor = Math.max(start, at - max);
  const j = skipBack(bytes, at, floor, cls);
  if (j === floor && j > start && cls[bytes[j - 1]!]) return -1;
  return j;
}

/** `bytes` just before `at` spell `word` (case-insensitive) and no letter precedes it. */
function endsWithWord(bytes: Uint8Array, at: number, start: number, word: string): boolean {
  const from = at - word.length;
  if (from < start) return false;
  for (let k = 0; k < word.length; k++) if ((bytes[from + k]! | 0x20) !== word.charCodeAt(k)) return false;
  return from === start || !isAlnumCode(bytes[from - 1]!);
}

/** An identifier with a `_`, `.` or `-`, or a lower-case letter before a capital. */
function compound(bytes: Uint8Array, from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const c = bytes[j]!;
    if (c === 0x5f || c === 0x2e || c === 0x2d) return true;
    if (j > from && isUpperCode(c) && isLowerCode(bytes[j - 1]!)) return true;
  }
  return false;
}

/** `count` bytes of `cls` right before `at`. */
function runBefore(bytes: Uint8Array, at: number, start: number, cls: Uint8Array, count: number): boolean {
  if (at - count < start) return false;
  for (let j = at - 1; j >= at - count; j--) if (!cls[bytes[j]!]) return false;
  return true;
}

/** A `\n`, `\r` or `\t` escape at `i`. */
function isEscape(bytes: Uint8Array, i: number, end: number): boolean {
  return bytes[i] === 0x5c && i + 1 < end && (bytes[i + 1] === 0x6e || bytes[i + 1] === 0x72 || bytes[i + 1] === 0x74);
}

/** Where the digit-join run holding `at` has its first digit. */
function firstDigitOfRun(bytes: Uint8Array, at: number, start: number): number {
  let j = at;
  while (j > start && (DIGIT[bytes[j - 1]!] || DIGIT_JOIN[bytes[j - 1]!])) j--;
  while (!DIGIT[bytes[j]!]) j++;
  return j;
}

/**
 * Whether the token run from `from` (bytes of base64 or `[A-Za-z0-9_-]`) holds a run of
 * `BASE64_RUN` or more base64 characters with upper case, lower case and a digit. An escape's
 * letter (`\n`) starts no base64 run: the rules see it as whitespace.
 */
function base64Runs(bytes: Uint8Array, from: number, start: number, end: number): boolean {
  let j = from;
  if (j > start && isEscape(bytes, j - 1, end)) j++;
  while (j < end && (BASE64[bytes[j]!] || WORD_DASH[bytes[j]!])) {
    let upper = false;
    let lower = false;
    // A digit, or `+` or `/`: key material without a digit (isKeyMaterial) has one of those.
    let other = false;
    const runStart = j;
    for (; j < end && BASE64[bytes[j]!]; j++) {
      const c = bytes[j]!;
      if (isUpperCode(c)) upper = true;
      else if (isLowerCode(c)) lower = true;
      else other = true;
    }
    if (j - runStart >= BASE64_RUN && upper && lower && other) return true;
    if (j < end && WORD_DASH[bytes[j]!]) j++; // `_` or `-`: in the token run, not in base64
  }
  return false;
}

/** An IBAN may start two bytes before the digit at `i`: two capitals, two digits, not inside a longer word. */
function ibanStart(bytes: Uint8Array, i: number, start: number, end: number): boolean {
  if (!(i - 2 >= start && UPPER[bytes[i - 1]!] && UPPER[bytes[i - 2]!] && DIGIT[bytes[i + 1]!] && (i - 3 < start || !ALNUM[bytes[i - 3]!]))) return false;
  return ibanAt(bytes, i - 2, end);
}

/** An IBAN start at `p`: a country's capitals and two digits, then enough capitals and digits (single spaces allowed). */
function ibanAt(bytes: Uint8Array, p: number, end: number): boolean {
  const expected = IBAN_LENGTH[(bytes[p]! - 65) * 26 + bytes[p + 1]! - 65]!;
  if (expected === 0) return false;
  let count = 0;
  let spaces = 0;
  for (let j = p; j < end && count < expected; j++) {
    const c = bytes[j]!;
    if (isUpperCode(c) || isDigitCode(c)) {
      count++;
      spaces = 0;
    } else if (c === 32 && spaces === 0) spaces++;
    else break;
  }
  return count >= expected;
}

/** The whole text is one line of base64 with a run of 8+ characters of two kinds or more. */
function keyMaterialLine(bytes: Uint8Array, start: number, end: number): boolean {
  let run = 0;
  let kinds = 0;
  let best = false;
  for (let j = start; j < end; j++) {
    const c = bytes[j]!;
    if (!KEY_LINE[c]) return false;
    if (BASE64[c]) {
      run++;
      kinds |= isUpperCode(c) ? 1 : isLowerCode(c) ? 2 : 4;
      if (run >= 8 && (kinds === 3 || kinds === 5 || kinds === 6 || kinds === 7)) best = true;
    } else {
      run = 0;
      kinds = 0;
    }
  }
  return best;
}

/**
 * One pass over a text's bytes that finds which rule conditions hold (conditions.ts): an
 * Aho-Corasick automaton over every keyword (ASCII, case-insensitive), a check of each
 * keyword hit's surroundings, and the shapes that keyword-less rules need (digit groups,
 * base64 runs, IBAN starts). Run over UTF-8 bytes; any byte >= 0x80 is a separator, so the
 * result is the same for a raw line and for the string decoded from it.
 *
 * Linear time: the automaton steps once per byte; a keyword hit looks at a bounded window
 * (or, for `url-at`, a window that later hits do not scan again); a run of digits is
 * walked once, when its first digit is met.
 */
import type { Condition, Context, Shape } from './conditions.js';

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

/** What the main loop does with a byte beyond stepping the automaton. */
const enum Kind {
  Base64 = 0, // letters, `+`, `/`: nothing to do
  Digit,
  Dash,
  Dot,
  Backslash,
  Other, // ends a base64 run
}
const KIND = new Uint8Array(256).fill(Kind.Other);
for (let c = 0; c < 128; c++) {
  if (isDigitCode(c)) KIND[c] = Kind.Digit;
  else if (BASE64[c]) KIND[c] = Kind.Base64;
}
KIND[ch('-')] = Kind.Dash;
KIND[ch('.')] = Kind.Dot;
KIND[ch('\\')] = Kind.Backslash;

// ---------- IBAN countries (ISO 13616 lengths; 0: not a country) ----------

const IBAN_LENGTHS =
  'AD24AE23AL28AT20AZ28BA20BE16BG22BH22BI27BR29BY28CH21CR22CY28CZ24DE22DJ27DK18DO28EE20EG29ES24FI18FK18FO18FR27GB22GE22GI23GL18GR27GT28HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20LU20LV21LY25MC27MD24ME22MK19MN20MR27MT31MU30NI28NL18NO15OM23PK24PL28PS29PT25QA29RO24RS22RU33SA24SC31SD18SE24SI19SK24SM27SO23ST25SV28TL23TN24TR26UA29VA22VG24XK20YE30';
const IBAN_LENGTH = new Uint8Array(26 * 26);
for (let i = 0; i < IBAN_LENGTHS.length; i += 4) {
  IBAN_LENGTH[(IBAN_LENGTHS.charCodeAt(i) - 65) * 26 + IBAN_LENGTHS.charCodeAt(i + 1) - 65] = Number(IBAN_LENGTHS.slice(i + 2, i + 4));
}
/** Exported for the validators, so the screen and the rule read one table. */
export function ibanLength(country: string): number {
  if (!/^[A-Z]{2}$/.test(country)) return 0;
  return IBAN_LENGTH[(country.charCodeAt(0) - 65) * 26 + country.charCodeAt(1) - 65]!;
}

// ---------- contexts ----------

const CONTEXT_CODES = ['any', 'assign', 'flag', 'spaced', 'line', 'quote', 'xml', 'named', 'url-at', 'email', 'scheme', 'tail', 'vendor'] as const;
const codeOf = (c: Context): number => CONTEXT_CODES.indexOf(c.kind);
const paramOf = (c: Context): number => (c.kind === 'scheme' || c.kind === 'tail' ? c.min : 0);

const SHAPES: readonly Shape[] = ['base64-40', 'hex32-dash', 'token-dot', 'card', 'ssn', 'phone', 'ipv4', 'iban', 'key-material-line'];
const shapeIndex = (s: Shape): number => SHAPES.indexOf(s);
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
const RING = 8;
const groupLength = new Int32Array(RING);
const groupFirst = new Int32Array(RING);
const groupValue = new Int32Array(RING);
/** Characters between this group and the one before, and the single one when there is one (else 0). */
const gapLength = new Int32Array(RING);
const gapChar = new Int32Array(RING);

/**
 * Walks the digit groups that start at `i` (a digit) and returns where they end, with the
 * shapes found in `bits`. Layouts checked on every group end, over the last few groups.
 */
function digitGroups(bytes: Uint8Array, i: number, start: number, end: number, out: { bits: number }): number {
  let n = 0; // groups seen
  let chain = 0; // groups since the last gap of 3+ characters
  let cardDigits = -1; // digits since the first group starting with 2-6 in a chain of single space/dash gaps
  let plusDigits = -1; // digits since a `+`
  let plusPending = i - 1 >= start && bytes[i - 1] === ch('+');
  let gap = 0;
  let gapCh = 0;
  let j = i;
  while (j < end) {
    const c = bytes[j]!;
    if (DIGIT[c]) {
      // One group.
      let len = 0;
      let value = 0;
      const first = c - 48;
      while (j < end && DIGIT[bytes[j]!]) {
        if (value < 100000) value = value * 10 + (bytes[j]! - 48);
        len++;
        j++;
      }
      const at = n % RING;
      groupLength[at] = len;
      groupFirst[at] = first;
      groupValue[at] = value;
      gapLength[at] = n === 0 ? 0 : gap;
      gapChar[at] = gap === 1 ? gapCh : 0;
      if (n > 0 && gap > 2) {
        chain = 0;
        cardDigits = -1;
        plusDigits = -1;
      }
      if (plusPending) {
        plusDigits = 0;
        plusPending = false;
      }
      n++;
      chain++;
      const singleSpaceOrDash = gap === 1 && (gapCh === 32 || gapCh === ch('-'));
      if (chain > 1 && !singleSpaceOrDash) cardDigits = -1;
      if (cardDigits >= 0) cardDigits += len;
      else if (first >= 2 && first <= 6) cardDigits = len;
      if (cardDigits >= 13) out.bits |= CARD_BIT;
      if (plusDigits >= 0) {
        plusDigits += len;
        if (plusDigits >= 8) out.bits |= PHONE_BIT;
      }
      checkLayouts(n, chain, out);
      gap = 0;
      gapCh = 0;
      continue;
    }
    if (!DIGIT_JOIN[c]) break;
    gap++;
    gapCh = c;
    // `+` starts an international number.
    if (c === ch('+')) plusPending = true;
    j++;
  }
  return j;
}

/** The layouts that end at group `n - 1` (the last `chain` groups are joined by gaps of 1-2 characters). */
function checkLayouts(n: number, chain: number, out: { bits: number }): void {
  const g = (back: number): number => (n - 1 - back + RING * 4) % RING;
  const len = (back: number): number => groupLength[g(back)]!;
  const single = (back: number): number => (gapLength[g(back)] === 1 ? gapChar[g(back)]! : -1);
  if (chain >= 4) {
    // a.b.c.d: 1-3 digits each, no leading zero, at most 255, public, not a network (d = 0).
    let quad = true;
    for (let b = 0; b < 4 && quad; b++) {
      const l = len(b);
      const v = groupValue[g(b)]!;
      if (l > 3 || v > 255 || (l > 1 && groupFirst[g(b)] === 0)) quad = false;
      if (b < 3 && single(b) !== ch('.')) quad = false;
    }
    if (quad && groupValue[g(0)] !== 0 && publicPrefix(groupValue[g(3)]!, groupValue[g(2)]!)) out.bits |= IPV4_BIT;
  }
  if (chain >= 3) {
    // SSN: 3-2-4 joined by the same space or dash.
    const sep = single(0);
    if (len(2) === 3 && len(1) === 2 && len(0) === 4 && (sep === 32 || sep === ch('-')) && single(1) === sep) out.bits |= SSN_BIT;
    // National phones: x-ddd(d)-ddd(d) with 9-13 digits; dotted ones end in four digits (IPs do not).
    const b = len(1);
    const c = len(0);
    if (b >= 3 && b <= 4 && c >= 3 && c <= 4 && len(2) + b + c >= 9) {
      const dotted = single(0) === ch('.') && single(1) === ch('.');
      if (!dotted || c === 4) out.bits |= PHONE_BIT;
    }
  }
  if (chain >= 2) {
    // 0ddd dddddd(dd): a trunk prefix, then the subscriber number in one group.
    const a = len(1);
    const sep = single(0);
    if (groupFirst[g(1)] === 0 && a >= 3 && a <= 5 && len(0) >= 6 && len(0) <= 8 && (sep === 32 || sep === ch('-'))) out.bits |= PHONE_BIT;
  }
  if (chain >= 5) {
    // 0d dd dd dd dd
    let pairs = groupFirst[g(4)] === 0;
    const sep = single(0);
    for (let b = 0; b < 5 && pairs; b++) if (len(b) !== 2 || (b < 4 && single(b) !== sep)) pairs = false;
    if (pairs && (sep === 32 || sep === ch('.'))) out.bits |= PHONE_BIT;
  }
}

// ---------- the automaton ----------

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
  readonly #next: Uint16Array;
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
  readonly #conjunctions: readonly number[][];
  readonly #signalCount: number;
  /** Per-scan state, reused. */
  #fired: Uint8Array;
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
    this.#conjunctions = this.#rules.flatMap((r) => r.conjunctions).filter((c) => !seen.has(String(c)) && seen.add(String(c)));
    this.#signalCount = signalIds.size;
    this.#sufficient = Uint8Array.from(sufficient);
    this.#shapeSignal = shapeSignal;
    this.#fired = new Uint8Array(this.#signalCount);

    // Trie, failure links, full transition table (breadth first), then states renumbered
    // so that those with hits come last: the hot loop tests `state >= firstHitState`.
    const children: Map<number, number>[] = [new Map()];
    const own: number[][] = [[]];
    entries.forEach((entry, id) => {
      let state = 0;
      for (const character of entry.word) {
        const code = character.charCodeAt(0);
        if (code >= 128) throw new RangeError(`keyword ${JSON.stringify(entry.word)} is not ASCII`);
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
      outputs[state]!.push(...outputs[fail[state]!]!);
      for (let c = 0; c < 128; c++) {
        const target = children[state]!.get(c);
        if (target === undefined) next[state * 128 + c] = next[fail[state]! * 128 + c]!;
        else {
          fail[target] = next[fail[state]! * 128 + c]!;
          next[state * 128 + c] = target;
          order.push(target);
        }
      }
    }
    const renumber = new Int32Array(states);
    let low = 0;
    for (let s = 0; s < states; s++) if (outputs[s]!.length === 0) renumber[s] = low++;
    this.#firstHitState = low;
    let high = low;
    for (let s = 0; s < states; s++) if (outputs[s]!.length > 0) renumber[s] = high++;
    const table = new Uint16Array(states * 128);
    for (let s = 0; s < states; s++) {
      for (let c = 0; c < 128; c++) {
        // Case-insensitive: upper-case letters step like lower-case ones.
        const lookup = c >= 65 && c <= 90 ? c + 32 : c;
        table[renumber[s]! * 128 + c] = renumber[next[s * 128 + lookup]!]!;
      }
    }
    this.#next = table;
    const hitStates = states - low;
    this.#hitStart = new Int32Array(hitStates);
    this.#hitEnd = new Int32Array(hitStates);
    const flat: number[] = [];
    for (let s = 0; s < states; s++) {
      if (outputs[s]!.length === 0) continue;
      const at = renumber[s]! - low;
      this.#hitStart[at] = flat.length;
      flat.push(...outputs[s]!);
      this.#hitEnd[at] = flat.length;
    }
    this.#entryContext = Int8Array.from(flat, (e) => codeOf(entries[e]!.context));
    this.#entryParam = Int32Array.from(flat, (e) => paramOf(entries[e]!.context));
    this.#entrySignal = Int32Array.from(flat, (e) => entries[e]!.signal);
    this.#entryLength = Int32Array.from(flat, (e) => entries[e]!.word.length);
  }

  /** Whether any rule may change `bytes[start, end)`. Allocates nothing. */
  any(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
    return this.#scan(bytes, start, end, false);
  }

  /** For each rule (in construction order), whether it may change the text. */
  rulesToRun(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
    this.#scan(bytes, start, end, true);
    const fired = this.#fired;
    const run = new Uint8Array(this.#rules.length);
    this.#rules.forEach((rule, r) => {
      if (rule.signals.some((s) => fired[s] === 1) || rule.conjunctions.some((parts) => parts.every((s) => fired[s] === 1))) run[r] = 1;
    });
    return run;
  }

  /**
   * The scan. `collect`: record every signal in #fired. Otherwise stop at the first
   * sufficient signal (parts are recorded and checked at the end).
   */
  #scan(bytes: Uint8Array, start: number, end: number, collect: boolean): boolean {
    const fired = this.#fired;
    fired.fill(0);
    this.#urlNoAtBefore = start;
    const next = this.#next;
    const firstHit = this.#firstHitState;
    const shapes = this.#shapeSignal;
    let state = 0;
    let base64Start = start;
    let digitsEnd = start;
    for (let i = start; i < end; i++) {
      let c = bytes[i]!;
      if (c === 0x5c && i + 1 < end && (bytes[i + 1] === 0x6e || bytes[i + 1] === 0x72 || bytes[i + 1] === 0x74)) {
        // `\n`, `\r`, `\t` escapes: the rules see the letter as whitespace (escapes.ts), so does the scan.
        if (i - base64Start >= 40 && this.#mixedRun(bytes, base64Start, i) && this.#raise(shapes[0]!, collect)) return true;
        state = 0;
        i++;
        base64Start = i + 1;
        continue;
      }
      if (c >= 128) {
        state = 0;
        c = 0; // a separator from here on
      } else {
        state = next[(state << 7) | c]!;
        if (state >= firstHit && this.#hits(state - firstHit, bytes, i, start, end, collect)) return true;
      }
      const kind = KIND[c]!;
      if (kind === Kind.Base64) continue;
      if (kind === Kind.Digit) {
        if (i >= digitsEnd) {
          const digits = this.#digits;
          digits.bits = 0;
          digitsEnd = digitGroups(bytes, i, start, end, digits);
          if (digits.bits !== 0) {
            if (digits.bits & CARD_BIT && this.#raise(shapes[shapeIndex('card')]!, collect)) return true;
            if (digits.bits & SSN_BIT && this.#raise(shapes[shapeIndex('ssn')]!, collect)) return true;
            if (digits.bits & PHONE_BIT && this.#raise(shapes[shapeIndex('phone')]!, collect)) return true;
            if (digits.bits & IPV4_BIT && this.#raise(shapes[shapeIndex('ipv4')]!, collect)) return true;
          }
        }
        // IBAN: two capitals, two digits, not inside a longer word.
        if (i - 3 >= start && DIGIT[bytes[i - 1]!] && UPPER[bytes[i - 2]!] && UPPER[bytes[i - 3]!] && (i - 4 < start || !ALNUM[bytes[i - 4]!])) {
          if (ibanAt(bytes, i - 3, end) && this.#raise(shapes[shapeIndex('iban')]!, collect)) return true;
        }
        continue;
      }
      // Anything else ends a base64 run.
      if (i - base64Start >= 40 && this.#mixedRun(bytes, base64Start, i) && this.#raise(shapes[0]!, collect)) return true;
      base64Start = i + 1;
      if (kind === Kind.Dash) {
        if (runBefore(bytes, i, start, HEX, 32) && this.#raise(shapes[shapeIndex('hex32-dash')]!, collect)) return true;
      } else if (kind === Kind.Dot) {
        if (runBefore(bytes, i, start, WORD_DASH, 24) && this.#raise(shapes[shapeIndex('token-dot')]!, collect)) return true;
      }
    }
    if (end - base64Start >= 40 && this.#mixedRun(bytes, base64Start, end) && this.#raise(shapes[0]!, collect)) return true;
    if (end - start <= 256 && keyMaterialLine(bytes, start, end) && this.#raise(shapes[shapeIndex('key-material-line')]!, collect)) return true;
    if (collect) return false;
    for (const parts of this.#conjunctions) if (parts.every((s) => fired[s] === 1)) return true;
    return false;
  }

  /** Records a signal; true when the scan may stop (a sufficient signal, not collecting). */
  #raise(signal: number, collect: boolean): boolean {
    if (signal < 0) return false;
    this.#fired[signal] = 1;
    return !collect && this.#sufficient[signal] === 1;
  }

  #hits(hitState: number, bytes: Uint8Array, i: number, start: number, end: number, collect: boolean): boolean {
    const fired = this.#fired;
    for (let e = this.#hitStart[hitState]!, stop = this.#hitEnd[hitState]!; e < stop; e++) {
      const signal = this.#entrySignal[e]!;
      if (fired[signal] === 1) continue;
      const kwEnd = i + 1;
      const kwStart = kwEnd - this.#entryLength[e]!;
      if (this.#context(this.#entryContext[e]!, this.#entryParam[e]!, bytes, kwStart, kwEnd, start, end) && this.#raise(signal, collect)) return true;
    }
    return false;
  }

  #mixedRun(bytes: Uint8Array, from: number, to: number): boolean {
    let upper = false;
    let lower = false;
    let digit = false;
    for (let j = from; j < to; j++) {
      const c = bytes[j]!;
      if (isUpperCode(c)) upper = true;
      else if (isLowerCode(c)) lower = true;
      else if (isDigitCode(c)) digit = true;
      if (upper && lower && digit) return true;
    }
    return false;
  }

  #context(code: number, param: number, bytes: Uint8Array, kwStart: number, kwEnd: number, start: number, end: number): boolean {
    switch (CONTEXT_CODES[code]) {
      case 'any':
        return true;
      case 'assign': {
        let j = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), IDENT);
        if (j < end && bytes[j] === 0x5c) j++;
        if (j < end && (bytes[j] === 0x22 || bytes[j] === 0x27)) j++;
        if (j < end && bytes[j] === 0x5d) j++;
        j = skip(bytes, j, Math.min(end, j + 4), BLANK);
        return j < end && (bytes[j] === 0x3d || bytes[j] === 0x3a);
      }
      case 'flag': {
        const from = identStart(bytes, kwStart, start, WORD_DASH, 42);
        if (from < 0 || bytes[from] !== 0x2d) return false;
        const j = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), WORD_DASH);
        return j < end && BLANK[bytes[j]!] === 1;
      }
      case 'spaced': {
        let j = skip(bytes, kwEnd, Math.min(end, kwEnd + 40), IDENT);
        const blanks = j;
        j = skip(bytes, j, Math.min(end, j + 4), BLANK);
        if (j === blanks) return false;
        if (j < end && (bytes[j] === 0x22 || bytes[j] === 0x27)) j++;
        return skip(bytes, j, Math.min(end, j + 16), TOKEN) - j >= 16;
      }
      case 'line': {
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
      case 'quote': {
        const j = skip(bytes, kwEnd, Math.min(end, kwEnd + 4), BLANK);
        return j > kwEnd && j < end && (bytes[j] === 0x22 || bytes[j] === 0x27);
      }
      case 'xml': {
        const from = identStart(bytes, kwStart, start, IDENT, 64);
        return from > start && (bytes[from - 1] === 0x3c || bytes[from - 1] === 0x3a || bytes[from - 1] === 0x2f);
      }
      case 'named': {
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
      case 'url-at': {
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
      case 'email': {
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
      case 'scheme': {
        const j = skip(bytes, kwEnd, Math.min(end, kwEnd + 4), BLANK);
        return j > kwEnd && skip(bytes, j, Math.min(end, j + param), TOKEN) - j >= param;
      }
      case 'tail':
        return skip(bytes, kwEnd, Math.min(end, kwEnd + param), TOKEN) - kwEnd >= param;
      case 'vendor': {
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

/** `count` bytes of `cls` right before `at`. */
function runBefore(bytes: Uint8Array, at: number, start: number, cls: Uint8Array, count: number): boolean {
  if (at - count < start) return false;
  for (let j = at - 1; j >= at - count; j--) if (!cls[bytes[j]!]) return false;
  return true;
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

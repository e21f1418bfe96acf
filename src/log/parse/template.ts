/**
 * A line's template: its message with variables replaced by typed placeholders, so that
 * lines of the same event share one key.
 *
 * This is condense_log's hot path, so it works on the UTF-8 bytes of a chunk, not on
 * strings: one pass over the bytes computes a 53-bit hash of the template (the group key)
 * and records where the verbatim runs and placeholders are. The template's text is built
 * only when a group is new, which is rare after the first lines.
 */

export const MAX_TEMPLATE_CHARS = 400;
/** Bytes of a message that shape its template; past them the template ends with `…`. */
const MAX_TEMPLATE_BYTES = MAX_TEMPLATE_CHARS * 2;

const Kind = { Verbatim: 0, Num: 1, Hex: 2, Uuid: 3, Ip: 4, Mac: 5, Pid: 6 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];
const PLACEHOLDER = ['', '<NUM>', '<HEX>', '<UUID>', '<IP>', '<MAC>', '<PID>'];

const TAB = 9, SPACE = 32, QUOTE = 34, APOS = 39, LPAREN = 40, RPAREN = 41, COMMA = 44, MINUS = 45, DOT = 46;
const ZERO = 48, COLON = 58, SEMI = 59, LT = 60, EQ = 61, GT = 62, LBRACKET = 91, RBRACKET = 93;
const LBRACE = 123, PIPE = 124, RBRACE = 125, LOWER_X = 120, ESC = 27, CARET = 94;

// Bytes that end a token. `:`, `.`, `/`, `-`, `_` and `@` stay inside tokens so that
// addresses, paths and ids are classified whole.
const DELIMITER = new Uint8Array(256);
// ESC and `^` end tokens so that a colour code inside a word is seen and dropped.
for (const c of [TAB, SPACE, QUOTE, APOS, LPAREN, RPAREN, COMMA, SEMI, LT, EQ, GT, LBRACKET, RBRACKET, LBRACE, PIPE, RBRACE, ESC, CARET]) {
  DELIMITER[c] = 1;
}
// Byte classes: 1 digit, 2 hex letter, 3 other ASCII letter.
const CLASS = new Uint8Array(256);
for (let c = 48; c <= 57; c++) CLASS[c] = 1;
for (let c = 97; c <= 122; c++) CLASS[c] = c <= 102 ? 2 : 3;
for (let c = 65; c <= 90; c++) CLASS[c] = c <= 70 ? 2 : 3;

/** For the token loop, one read a byte: 1 a digit, END_OF_TOKEN a delimiter, 0 any other byte. */
const END_OF_TOKEN = 2;
const TOKEN_BYTE = new Uint8Array(256);
for (let c = 0; c < 256; c++) TOKEN_BYTE[c] = DELIMITER[c] === 1 ? END_OF_TOKEN : CLASS[c] === 1 ? 1 : 0;

/** Punctuation that can stand before a value without being part of it. */
const LEADING_PUNCT = new Uint8Array(256);
for (const c of '/*#@~!%&+\\$?') LEADING_PUNCT[c.charCodeAt(0)] = 1;

const HEX = new Uint8Array(256);
for (let c = 0; c < 256; c++) HEX[c] = CLASS[c] === 1 || CLASS[c] === 2 ? 1 : 0;

const isDigit = (c: number | undefined): boolean => c !== undefined && CLASS[c] === 1;
const isHex = (c: number | undefined): boolean => c !== undefined && (CLASS[c] === 1 || CLASS[c] === 2);

const MARKER_WORD = Buffer.from('REDACTED:');

/** Whether the token [i, j) is the inside of a redaction marker: `[REDACTED:kind]`. */
function isRedactionMarker(b: Buffer, i: number, j: number): boolean {
  return b[i - 1] === LBRACKET && b[j] === RBRACKET && j - i > MARKER_WORD.length && b.compare(MARKER_WORD, 0, MARKER_WORD.length, i, i + MARKER_WORD.length) === 0;
}

const H1_SEED = 0x811c9dc5;
const H2_SEED = 0x3c6ef372;

/**
 * Scans message bytes into a template. Reused across lines: `begin`, one or more `add`
 * ranges, then `key()` (always) and `text()` (only for a new group).
 */
export class TemplateScanner {
  #buf: Buffer = Buffer.alloc(0);
  #h1 = H1_SEED;
  #h2 = H2_SEED;
  #budget = MAX_TEMPLATE_BYTES;
  #cut = false;
  #segFrom = new Int32Array(2 * MAX_TEMPLATE_BYTES + 8);
  #segTo = new Int32Array(2 * MAX_TEMPLATE_BYTES + 8);
  #segKind = new Uint8Array(2 * MAX_TEMPLATE_BYTES + 8);
  #segs = 0;

  /** The buffer the template was scanned from (placeholder ranges point into it). */
  get buffer(): Buffer {
    return this.#buf;
  }

  begin(buf: Buffer): this {
    this.#buf = buf;
    this.#h1 = H1_SEED;
    this.#h2 = H2_SEED;
    this.#budget = MAX_TEMPLATE_BYTES;
    this.#cut = false;
    this.#segs = 0;
    return this;
  }

  /** Adds the template of bytes [start, end) of the buffer given to begin. */
  add(start: number, end: number): this {
    if (end - start > this.#budget) {
      end = start + this.#budget;
      this.#cut = true;
    }
    this.#budget -= end - start;
    const b = this.#buf;
    let h1 = this.#h1;
    let h2 = this.#h2;
    let verbatimFrom = start;
    let i = start;
    while (i < end) {
      const c = b[i]!;
      if (DELIMITER[c] === 1) {
        if ((c === ESC || c === CARET) && b[i + 1] === LBRACKET && (c === ESC || b[i + 2] === LBRACKET)) {
          // Terminal colours (CI logs are full of them) are no part of the event; copied
          // logs show ESC as a literal `^[`.
          this.#pushVerbatim(verbatimFrom, i);
          i = skipAnsi(b, c === ESC ? i : i + 1, end);
          verbatimFrom = i;
          continue;
        }
        if (c === SPACE || c === TAB) {
          // A run of blanks is one separator: padding that varies with a number's width
          // (`1702  2395`, `1702 2395`) does not split an event.
          h1 = Math.imul(h1 ^ SPACE, 0x01000193);
          h2 = Math.imul((h2 + SPACE) | 0, 0x5bd1e995) ^ (h2 >>> 13);
          i++;
          while (i < end && (b[i] === SPACE || b[i] === TAB)) i++;
          continue;
        }
        h1 = Math.imul(h1 ^ c, 0x01000193);
        h2 = Math.imul((h2 + c) | 0, 0x5bd1e995) ^ (h2 >>> 13);
        i++;
        continue;
      }
      // A token: its end and digits first, then hashed as verbatim unless it is a variable
      // (whose parts #maskToken hashes).
      let j = i;
      let digits = 0;
      for (; j < end; j++) {
        const t = TOKEN_BYTE[b[j]!]!;
        if (t === END_OF_TOKEN) break;
        digits += t;
      }
      // A MAC address can be all letters; every other variable holds a digit. A redaction
      // marker's kind (`[REDACTED:ipv4]`) is a word, not a variable.
      if ((digits > 0 || (j - i === 17 && isMac(b, i))) && !isRedactionMarker(b, i, j)) {
        this.#h1 = h1;
        this.#h2 = h2;
        this.#pushVerbatim(verbatimFrom, i);
        this.#maskToken(i, j, digits);
        h1 = this.#h1;
        h2 = this.#h2;
        verbatimFrom = j;
      } else {
        for (let k = i; k < j; k++) {
          const d = b[k]!;
          h1 = Math.imul(h1 ^ d, 0x01000193);
          h2 = Math.imul((h2 + d) | 0, 0x5bd1e995) ^ (h2 >>> 13);
        }
      }
      i = j;
    }
    this.#pushVerbatim(verbatimFrom, end);
    this.#h1 = h1;
    this.#h2 = h2;
    return this;
  }

  /**
   * The group key: 53 bits of two independent 32-bit hashes. <HEX> hashes as <NUM>,
   * because a bare hex id is all digits now and then (a 7-digit short sha, 4% of the
   * time) and such a line should not split off a group of its own.
   */
  key(): number {
    const h1 = this.#cut ? Math.imul(this.#h1 ^ 0xff, 0x01000193) : this.#h1;
    return (h1 >>> 0) * 2097152 + (this.#h2 >>> 11);
  }

  text(): string {
    let out = '';
    for (let k = 0; k < this.#segs; k++) {
      const kind = this.#segKind[k]!;
      out += kind === Kind.Verbatim ? this.#buf.toString('utf8', this.#segFrom[k], this.#segTo[k]) : PLACEHOLDER[kind];
    }
    if (out.length > MAX_TEMPLATE_CHARS) return `${out.slice(0, MAX_TEMPLATE_CHARS)}…`;
    return this.#cut ? `${out}…` : out;
  }

  /**
   * The byte ranges the template's placeholders stand for, in order, as [from, to) pairs
   * into `out` (in the buffer given to begin); returns how many placeholders there are.
   */
  placeholders(out: Int32Array): number {
    let n = 0;
    for (let k = 0; k < this.#segs && 2 * n + 1 < out.length; k++) {
      if (this.#segKind[k] === Kind.Verbatim) continue;
      out[2 * n] = this.#segFrom[k]!;
      out[2 * n + 1] = this.#segTo[k]!;
      n++;
    }
    return n;
  }

  /** Records bytes already hashed by the main loop. */
  #pushVerbatim(from: number, to: number): void {
    if (to <= from) return;
    const n = this.#segs;
    if (n > 0 && this.#segKind[n - 1] === Kind.Verbatim && this.#segTo[n - 1] === from) {
      this.#segTo[n - 1] = to;
      return;
    }
    this.#segFrom[n] = from;
    this.#segTo[n] = to;
    this.#segKind[n] = Kind.Verbatim;
    this.#segs = n + 1;
  }

  /** Hashes and records verbatim bytes inside a variable token. */
  #emitVerbatim(from: number, to: number): void {
    const b = this.#buf;
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let i = from; i < to; i++) {
      const c = b[i]!;
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul((h2 + c) | 0, 0x5bd1e995) ^ (h2 >>> 13);
    }
    this.#h1 = h1;
    this.#h2 = h2;
    this.#pushVerbatim(from, to);
  }

  /** A placeholder for bytes [from, to), which are its value. */
  #emitPlaceholder(kind: Kind, from: number, to: number): void {
    const hashed = kind === Kind.Hex ? Kind.Num : kind;
    // A zero byte first: placeholders cannot hash like text.
    this.#h1 = Math.imul(Math.imul(this.#h1, 0x01000193) ^ hashed, 0x01000193);
    this.#h2 = Math.imul((Math.imul(this.#h2, 0x5bd1e995) + hashed) | 0, 0x5bd1e995) ^ (this.#h2 >>> 13);
    const n = this.#segs;
    this.#segKind[n] = kind;
    this.#segFrom[n] = from;
    this.#segTo[n] = to;
    this.#segs = n + 1;
  }

  /** A token that holds a digit (or is a MAC), classified whole first, then part by part. */
  #maskToken(a: number, end: number, digits: number): void {
    const s = this.#buf;
    // Trailing sentence punctuation is not part of the value ("port 8080." "from 10.0.0.1:").
    let b = end;
    while (b - a > 1 && (s[b - 1] === DOT || s[b - 1] === COLON)) b--;
    // Leading punctuation neither (`/10.0.0.1`, `*42`, `#7`); a minus sign before digits
    // stays with them, and `::1` keeps its colons.
    const start = a;
    while (a < b - 1 && LEADING_PUNCT[s[a]!] === 1) a++;
    if (a > start) this.#emitVerbatim(start, a);
    if (s[a] === MINUS && digits === b - a - 1) {
      this.#emitPlaceholder(Kind.Num, a, b);
      this.#emitVerbatim(b, end);
      return;
    }
    const len = b - a;
    const bracketed = a > 0 && s[a - 1] === LBRACKET && s[b] === RBRACKET;
    let kind: Kind | undefined;
    // The scan counted the digits: a plain number needs no further look.
    if (digits === len) kind = bracketed ? Kind.Pid : Kind.Num;
    else if (bracketed && isPidTid(s, a, b)) kind = Kind.Pid;
    else if (len === 36 && isUuid(s, a)) kind = Kind.Uuid;
    else if (len > 2 && s[a] === ZERO && (s[a + 1]! | 32) === LOWER_X && allHex(s, a + 2, b)) kind = Kind.Hex;
    else if (len === 17 && isMac(s, a)) kind = Kind.Mac;
    else if (isIpv4(s, a, b) || isColonHex(s, a, b)) kind = Kind.Ip;
    if (kind !== undefined) this.#emitPlaceholder(kind, a, b);
    else this.#maskParts(a, b);
    this.#emitVerbatim(b, end);
  }

  /**
   * Alphanumeric runs inside a token: all digits become <NUM> (a decimal point included),
   * hex-looking runs of six or more become <HEX>, and other runs keep their letters with
   * their digit runs replaced (`worker12` and `worker13` share `worker<NUM>`).
   */
  #maskParts(a: number, b: number): void {
    const s = this.#buf;
    let i = a;
    while (i < b) {
      if (CLASS[s[i]!] === 0) {
        let j = i + 1;
        while (j < b && CLASS[s[j]!] === 0) j++;
        // A minus between a separator and digits is a sign (`blk_-42` is `blk_` and -42).
        const sign = s[j - 1] === MINUS && j < b && CLASS[s[j]!] === 1 && (j - 1 === a || CLASS[s[j - 2]!] === 0);
        this.#emitVerbatim(i, sign ? j - 1 : j);
        i = j;
        continue;
      }
      // A UUID inside a longer token (`req-38101a0b-2096-447d-96ea-a692162415ae`).
      if (b - i >= 36 && (i === a || CLASS[s[i - 1]!] === 0) && (b - i === 36 || CLASS[s[i + 36]!] === 0) && isUuid(s, i)) {
        this.#emitPlaceholder(Kind.Uuid, i, i + 36);
        i += 36;
        continue;
      }
      let j = i;
      let digits = 0;
      let other = 0;
      while (j < b) {
        const cls = CLASS[s[j]!]!;
        if (cls === 0) break;
        if (cls === 1) digits++;
        else if (cls === 3) other++;
        j++;
      }
      if (digits === 0) {
        this.#emitVerbatim(i, j);
      } else if (digits === j - i) {
        // A decimal number: swallow `.digits` so that 3.14 is one placeholder.
        if (s[j] === DOT && isDigit(s[j + 1])) {
          j++;
          while (j < b && isDigit(s[j])) j++;
        }
        this.#emitPlaceholder(Kind.Num, i, j);
      } else if (other === 0 && j - i >= 4) {
        this.#emitPlaceholder(Kind.Hex, i, j);
      } else {
        for (let k = i; k < j; ) {
          let m = k;
          if (isDigit(s[k])) {
            while (m < j && isDigit(s[m])) m++;
            this.#emitPlaceholder(Kind.Num, k, m);
          } else {
            while (m < j && !isDigit(s[m])) m++;
            this.#emitVerbatim(k, m);
          }
          k = m;
        }
      }
      i = j;
    }
  }
}

/** The end of an ANSI CSI sequence whose introducer ends at `i + 1` (ESC [ parameters final-byte). */
function skipAnsi(b: Buffer, i: number, end: number): number {
  let k = i + 2;
  while (k < end && b[k]! >= 0x20 && b[k]! <= 0x3f) k++;
  return k < end && b[k]! >= 0x40 && b[k]! <= 0x7e ? k + 1 : k;
}

/** `123` or `123:456` (thread ids may be hex) between brackets: a pid, or pid and thread. */
function isPidTid(s: Buffer, a: number, b: number): boolean {
  let colons = 0;
  for (let i = a; i < b; i++) {
    const c = s[i]!;
    if (c === COLON) {
      if (++colons > 1 || i === a || i === b - 1) return false;
    } else if (!isHex(c)) return false;
  }
  return isDigit(s[a]);
}

function isUuid(s: Buffer, a: number): boolean {
  return (
    s[a + 8] === MINUS && s[a + 13] === MINUS && s[a + 18] === MINUS && s[a + 23] === MINUS &&
    hexRun(s, a, a + 8) && hexRun(s, a + 9, a + 13) && hexRun(s, a + 14, a + 18) && hexRun(s, a + 19, a + 23) && hexRun(s, a + 24, a + 36)
  );
}

function hexRun(s: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (HEX[s[i]!] !== 1) return false;
  return true;
}

/** aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff. */
function isMac(s: Buffer, a: number): boolean {
  const sep = s[a + 2];
  if (sep !== COLON && sep !== MINUS) return false;
  for (let k = 0; k < 17; k++) {
    const c = s[a + k];
    if (k % 3 === 2) {
      if (c !== sep) return false;
    } else if (!isHex(c)) return false;
  }
  return true;
}

function allHex(s: Buffer, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!isHex(s[i])) return false;
  return b > a;
}

/** Dotted quad, optionally with `:port`. */
function isIpv4(s: Buffer, a: number, b: number): boolean {
  let dots = 0;
  let run = 0;
  for (let i = a; i < b; i++) {
    const c = s[i]!;
    if (CLASS[c] === 1) {
      if (++run > 3) return false;
    } else if (c === DOT) {
      if (run === 0 || ++dots > 3) return false;
      run = 0;
    } else if (c === COLON && dots === 3 && run > 0) {
      for (let k = i + 1; k < b; k++) if (CLASS[s[k]!] !== 1) return false;
      return i + 1 < b;
    } else return false;
  }
  return dots === 3 && run > 0;
}

/** IPv6 addresses: hex groups joined by colons, with `::` or at least six groups. */
function isColonHex(s: Buffer, a: number, b: number): boolean {
  let colons = 0;
  let doubleColon = false;
  let run = 0;
  for (let i = a; i < b; i++) {
    const c = s[i]!;
    if (c === COLON) {
      if (run === 0 && i > a) doubleColon = true;
      colons++;
      run = 0;
    } else if (isHex(c)) {
      if (++run > 4) return false;
    } else if (c !== DOT) return false;
  }
  return doubleColon ? colons >= 2 : colons >= 5;
}

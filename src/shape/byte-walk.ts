/**
 * The outline walk over UTF-8 bytes: parses and shapes in one pass, without decoding the
 * input to a string and without building the values. JSON.parse is the cost floor for
 * anything that needs the values; an outline needs only what each value is, so this
 * walker skips both the decode and the objects and runs faster than JSON.parse alone.
 *
 * It is a complete, strict JSON parser (anything JSON.parse refuses, it refuses) that
 * observes values in document order with the same positions as the token walk. Strings
 * are turned into JS strings only when a node needs the text (its first example, a format
 * check, an enum lookup) or when they hold escapes or non-ASCII bytes; numbers with at
 * most 15 digits and a small exponent are computed exactly in place (one correctly
 * rounded multiply or divide of two exact doubles), the rest go through Number().
 *
 * It does not explain failures: a walk returns -1 and the caller asks JSON.parse and the
 * syntax scan (scan.ts) what is wrong, which costs nothing on the success path.
 *
 * Iterative: frames live in arrays, so depth costs heap, not call stack. Containers at the
 * depth cap are validated and counted but not entered.
 */
import { formatChecked } from './formats.js';
import { FORMAT_NONE, MAX_DEPTH, type EnumEntry, type ShapeNode } from './node.js';
import {
  childOf,
  closeObject,
  countString,
  describeString,
  itemsOf,
  observeArray,
  observeBoolean,
  observeNull,
  observeNumber,
  observeUnexpanded,
  openObject,
  nextObjectSerial,
  stampChild,
} from './observe.js';

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

/** Exact powers of ten as doubles (10^22 is the largest). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** 1 for the bytes a plain string is scanned over: printable ASCII but '"' and '\\'. */
const PLAIN = new Uint8Array(256);
for (let b = SPACE; b < 0x80; b++) if (b !== QUOTE && b !== BACKSLASH) PLAIN[b] = 1;

/** Slot caches (the last key order seen at a node) cover this many keys of an object. */
const SLOT_LIMIT = 256;

/** Buffer's latin1Slice: one-byte string creation without toString's argument checks. */
type LatinBuffer = Buffer & { latin1Slice(start: number, end: number): string };

export class ByteWalker {
  // Frames (parallel arrays): the container's node, whether it is an array, members so
  // far, and (objects) the serial that detects a key repeated within the object.
  private readonly nodes: ShapeNode[] = [];
  private readonly arrays: boolean[] = [];
  private readonly sizes: number[] = [];
  private readonly serials: number[] = [];
  /** The skip scan's stack of expected closers (containers below the depth cap). */
  private readonly skipStack: number[] = [];
  /** Members of the container the last skip passed over. */
  private skippedSize = 0;
  /** The node the value after the last key goes to. */
  private keyTarget: ShapeNode | undefined;
  /** The pre-order position after the last value walked. */
  next = 0;

  /**
   * Walk one JSON value starting at or after `start` (leading whitespace skipped) into
   * `root`, reading no byte at or past `end`. Values get positions (major, minor), (major,
   * minor + 1), ... in pre-order; `next` is set to the first unused minor. Returns the
   * offset just after the value, or -1 when the bytes are not a JSON value (the nodes
   * may then hold part of it: callers discard them).
   */
  value(root: ShapeNode, bytes: Buffer, start: number, end: number, major: number, minor: number): number {
    const buf = bytes as LatinBuffer;
    const nodes = this.nodes;
    const arrays = this.arrays;
    const sizes = this.sizes;
    const serials = this.serials;
    let p = start;
    let pos = minor;
    let top = -1;
    let target = root;
    let c = 0;

    values: for (;;) {
      // ---- one value, for `target`
      p = skipSpace(buf, p, end);
      if (p >= end) return -1;
      c = buf[p] as number;
      const at = pos++;
      if (c === QUOTE) {
        p = walkString(target, buf, p + 1, end, major, at);
        if (p < 0) return -1;
      } else if ((c >= ZERO && c <= NINE) || c === MINUS) {
        p = walkNumber(target, buf, p, end);
        if (p < 0) return -1;
      } else if (c === LBRACE || c === LBRACKET) {
        if (top + 1 >= MAX_DEPTH) {
          p = this.skipContainer(buf, p, end);
          if (p < 0) return -1;
          observeUnexpanded(target, c === LBRACKET, this.skippedSize);
        } else if (c === LBRACKET) {
          p = skipSpace(buf, p + 1, end);
          if (p < end && buf[p] === RBRACKET) {
            observeArray(target, 0);
            p++;
          } else {
            top++;
            nodes[top] = target;
            arrays[top] = true;
            sizes[top] = 1;
            target = target.items ?? itemsOf(target, major, pos);
            continue values;
          }
        } else {
          openObject(target);
          p = skipSpace(buf, p + 1, end);
          if (p < end && buf[p] === RBRACE) {
            closeObject(target, 0);
            p++;
          } else {
            const serial = nextObjectSerial();
            top++;
            nodes[top] = target;
            arrays[top] = false;
            sizes[top] = 1;
            serials[top] = serial;
            p = this.key(buf, p, end, target, 0, serial, major, pos);
            if (p < 0) return -1;
            target = this.keyTarget as ShapeNode;
            continue values;
          }
        }
      } else if (c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
        const q = literalEnd(buf, p, end);
        if (q < 0) return -1;
        if (c === 0x6e) observeNull(target);
        else observeBoolean(target, c === 0x74);
        p = q;
      } else {
        return -1;
      }

      // ---- after a value: the next member, or close containers
      for (;;) {
        if (top < 0) {
          this.next = pos;
          return p;
        }
        p = skipSpace(buf, p, end);
        if (p >= end) return -1;
        c = buf[p] as number;
        const n = nodes[top] as ShapeNode;
        if (c === COMMA) {
          const i = (sizes[top] as number)++;
          if (arrays[top] === true) {
            p++;
            target = n.items as ShapeNode;
            continue values;
          }
          p = this.key(buf, skipSpace(buf, p + 1, end), end, n, i, serials[top] as number, major, pos);
          if (p < 0) return -1;
          target = this.keyTarget as ShapeNode;
          continue values;
        }
        if (arrays[top] === true ? c === RBRACKET : c === RBRACE) {
          if (arrays[top] === true) observeArray(n, sizes[top] as number);
          else closeObject(n, sizes[top] as number);
          top--;
          p++;
          continue;
        }
        return -1;
      }
    }
  }

  /**
   * The key of member `i` of an object at node `n`, starting at the quote at `p`; sets
   * keyTarget to the node its value goes to and returns the offset after the colon.
   * Returns -1 when the bytes are not a key and a colon.
   */
  private key(buf: LatinBuffer, p: number, end: number, n: ShapeNode, i: number, serial: number, major: number, pos: number): number {
    if (p >= end || buf[p] !== QUOTE) return -1;
    const s0 = p + 1;
    let q = -1;
    let child: ShapeNode;
    if (n.keys === undefined) {
      // A map: all its values go to one node, so the key's text is not needed.
      q = stringEnd(buf, s0, end);
      if (q < 0) return -1;
      child = childOf(n, '', major, pos);
    } else {
      // The key-order cache: objects with the same keys as the last one skip the Map
      // and never make the key a string. Cached keys are plain ASCII, so equal bytes
      // followed by a quote are that key exactly.
      const slotKey = n.slotKeys?.[i];
      if (slotKey !== undefined) {
        const len = slotKey.length;
        if (s0 + len < end && buf[s0 + len] === QUOTE) {
          let j = 0;
          while (j < len && buf[s0 + j] === slotKey.charCodeAt(j)) j++;
          if (j === len) q = s0 + len;
        }
      }
      if (q >= 0) {
        child = (n.slotKids as ShapeNode[])[i] as ShapeNode;
      } else {
        q = s0;
        while (PLAIN[buf[q] as number] === 1) q++;
        const plain = buf[q] === QUOTE && q < end;
        let key: string;
        if (plain) {
          key = buf.latin1Slice(s0, q);
        } else {
          q = stringEnd(buf, q, end);
          if (q < 0) return -1;
          key = decodeString(buf, s0, q);
        }
        child = childOf(n, key, major, pos);
        if (plain && i < SLOT_LIMIT && n.keys !== undefined) rememberSlot(n, i, key, child);
      }
      stampChild(n, child, serial);
    }
    p = skipSpace(buf, q + 1, end);
    if (p >= end || buf[p] !== COLON) return -1;
    this.keyTarget = child;
    return p + 1;
  }

  /**
   * Pass over the container opening at `p` (at the depth cap), checking its syntax and
   * counting its members into skippedSize. Returns the offset after it, or -1.
   */
  private skipContainer(buf: LatinBuffer, p: number, end: number): number {
    const closers = this.skipStack;
    let depth = 0;
    let size = 0;
    let c = 0;
    closers[depth++] = buf[p] === LBRACKET ? RBRACKET : RBRACE;
    p = skipSpace(buf, p + 1, end);
    if (p < end && buf[p] === closers[0]) {
      this.skippedSize = 0;
      return p + 1;
    }
    members: for (;;) {
      if (depth === 1) size++;
      if (closers[depth - 1] === RBRACE) {
        p = skipSpace(buf, p, end);
        if (p >= end || buf[p] !== QUOTE) return -1;
        p = stringEnd(buf, p + 1, end);
        if (p < 0) return -1;
        p = skipSpace(buf, p + 1, end);
        if (p >= end || buf[p] !== COLON) return -1;
        p++;
      }
      p = skipSpace(buf, p, end);
      if (p >= end) return -1;
      c = buf[p] as number;
      if (c === LBRACE || c === LBRACKET) {
        const closer = c === LBRACKET ? RBRACKET : RBRACE;
        p = skipSpace(buf, p + 1, end);
        if (p < end && buf[p] === closer) {
          p++;
        } else {
          closers[depth++] = closer;
          continue members;
        }
      } else {
        p = scalarEnd(buf, p, end);
        if (p < 0) return -1;
      }
      for (;;) {
        p = skipSpace(buf, p, end);
        if (p >= end) return -1;
        c = buf[p] as number;
        if (c === COMMA) {
          p++;
          continue members;
        }
        if (c !== closers[depth - 1]) return -1;
        p++;
        depth--;
        if (depth === 0) {
          this.skippedSize = size;
          return p;
        }
      }
    }
  }
}

/**
 * Observe the string whose content starts at `s0` (after its quote) into `target`; returns
 * the offset after its closing quote, or -1 when it is not a JSON string.
 */
function walkString(target: ShapeNode, buf: LatinBuffer, s0: number, end: number, major: number, at: number): number {
  let q = s0;
  // Plain ASCII without escapes: the common case, scanned here. A byte past the buffer
  // reads as undefined and fails every test, so it ends the scan too.
  while (PLAIN[buf[q] as number] === 1) q++;
  if (buf[q] === QUOTE && q < end) {
    const len = q - s0;
    countString(target, len);
    const checkFormat = target.format !== FORMAT_NONE && len > 0 && formatChecked(major, at);
    if (target.example === undefined || checkFormat) {
      describeString(target, buf.latin1Slice(s0, q), major, at, checkFormat);
    } else if (target.enumValues !== null) {
      countEnumValue(target, buf, s0, q, major, at);
    }
    return q + 1;
  }
  q = stringEnd(buf, s0, end);
  if (q < 0) return -1;
  if (stringWasAscii) {
    // Escapes in ASCII: the length is known without making the string.
    const len = stringUnits;
    countString(target, len);
    const checkFormat = target.format !== FORMAT_NONE && len > 0 && formatChecked(major, at);
    if (target.example === undefined || checkFormat || target.enumValues !== null) {
      describeString(target, decodeString(buf, s0, q), major, at, checkFormat);
    }
  } else {
    const s = decodeString(buf, s0, q);
    countString(target, s.length);
    describeString(target, s, major, at, target.format !== FORMAT_NONE && s.length > 0 && formatChecked(major, at));
  }
  return q + 1;
}

/** Observe the number at `p` into `target`; returns the offset after it, or -1 when it is not a JSON number. */
function walkNumber(target: ShapeNode, buf: LatinBuffer, p: number, end: number): number {
  const q = numberEnd(buf, p, end);
  if (q >= 0) observeNumber(target, numberValue);
  return q;
}

/** Set by numberEnd: the number it read. */
let numberValue = 0;

/**
 * The offset after the JSON number at `p`, or -1 when there is none; sets numberValue.
 * -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
 */
function numberEnd(buf: LatinBuffer, p: number, end: number): number {
  let q = p;
  let c = buf[q] as number;
  const negative = c === MINUS;
  if (negative) c = buf[++q] as number;
  let mantissa = 0;
  let digits = 0;
  let exponent = 0;
  if (c === ZERO) {
    c = buf[++q] as number;
    digits = 1;
  } else if (c > ZERO && c <= NINE) {
    do {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      c = buf[++q] as number;
    } while (c >= ZERO && c <= NINE);
  } else {
    return -1;
  }
  if (c === DOT) {
    c = buf[++q] as number;
    if (!(c >= ZERO && c <= NINE)) return -1;
    do {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      exponent--;
      c = buf[++q] as number;
    } while (c >= ZERO && c <= NINE);
  }
  if (c === 0x65 /* e */ || c === 0x45 /* E */) {
    c = buf[++q] as number;
    let negativeExponent = false;
    if (c === PLUS || c === MINUS) {
      negativeExponent = c === MINUS;
      c = buf[++q] as number;
    }
    if (!(c >= ZERO && c <= NINE)) return -1;
    let e = 0;
    do {
      if (e < 100_000) e = e * 10 + (c - ZERO);
      c = buf[++q] as number;
    } while (c >= ZERO && c <= NINE);
    exponent += negativeExponent ? -e : e;
  }
  if (q > end) return -1;
  if (digits <= 15 && exponent >= -22 && exponent <= 22) {
    // Both operands are exact doubles, so one IEEE operation rounds correctly: the double
    // JSON.parse gives.
    const v = exponent === 0 ? mantissa : exponent > 0 ? mantissa * (POW10[exponent] as number) : mantissa / (POW10[-exponent] as number);
    numberValue = negative ? -v : v;
  } else {
    numberValue = Number(buf.latin1Slice(p, q));
  }
  return q;
}

/** The offset after `true`, `false` or `null` at `p`, or -1 when there is none. */
function literalEnd(buf: Buffer, p: number, end: number): number {
  const c = buf[p];
  if (c === 0x74) return p + 4 <= end && buf[p + 1] === 0x72 && buf[p + 2] === 0x75 && buf[p + 3] === 0x65 ? p + 4 : -1;
  if (c === 0x66) return p + 5 <= end && buf[p + 1] === 0x61 && buf[p + 2] === 0x6c && buf[p + 3] === 0x73 && buf[p + 4] === 0x65 ? p + 5 : -1;
  if (c === 0x6e) return p + 4 <= end && buf[p + 1] === 0x75 && buf[p + 2] === 0x6c && buf[p + 3] === 0x6c ? p + 4 : -1;
  return -1;
}

/**
 * Count a plain ASCII string (bytes [s0, q)) at a node that still tracks enum values,
 * comparing bytes with the values already seen before making a string of them.
 */
function countEnumValue(n: ShapeNode, buf: LatinBuffer, s0: number, q: number, major: number, at: number): void {
  const texts = n.enumTexts;
  const len = q - s0;
  if (texts !== undefined) {
    for (let k = 0; k < texts.length; k++) {
      const text = texts[k] as string;
      if (text.length !== len) continue;
      let j = 0;
      while (j < len && buf[s0 + j] === text.charCodeAt(j)) j++;
      if (j === len) {
        (n.enumEntries as EnumEntry[])[k]!.count++;
        return;
      }
    }
  }
  const s = buf.latin1Slice(s0, q);
  describeString(n, s, major, at, false);
  const entry = n.enumValues?.get(s);
  if (entry === undefined) return;
  if (texts === undefined || n.enumEntries === undefined) {
    n.enumTexts = [s];
    n.enumEntries = [entry];
  } else {
    texts.push(s);
    n.enumEntries.push(entry);
  }
}

/** The first offset from `p` that is not JSON whitespace, or `end`. */
function skipSpace(buf: Buffer, p: number, end: number): number {
  let c: number;
  while (p < end && ((c = buf[p] as number) === SPACE || c === LF || c === CR || c === TAB)) p++;
  return p;
}

/** The cache of the last key order seen at n (see key()). */
function rememberSlot(n: ShapeNode, i: number, key: string, child: ShapeNode): void {
  if (n.slotKeys === undefined || n.slotKids === undefined) {
    n.slotKeys = [];
    n.slotKids = [];
  }
  n.slotKeys[i] = key;
  n.slotKids[i] = child;
}

/** The offset after the string, number or literal at `p`, or -1 if there is none. */
function scalarEnd(buf: LatinBuffer, p: number, end: number): number {
  const c = buf[p] as number;
  if (c === QUOTE) {
    const q = stringEnd(buf, p + 1, end);
    return q < 0 ? -1 : q + 1;
  }
  return c === 0x74 || c === 0x66 || c === 0x6e ? literalEnd(buf, p, end) : numberEnd(buf, p, end);
}

/** Set by stringEnd: whether the string was all ASCII, and then its length in UTF-16 units. */
let stringWasAscii = true;
let stringUnits = 0;

/**
 * The closing quote of a string whose content starts at `q` (escapes and any bytes of
 * 0x80 and up allowed; those decode to what JSON.parse would see), or -1 when the string
 * has a control character, a bad escape, or no end before `end`. Sets stringWasAscii and
 * stringUnits (each escape, \uXXXX included, is one UTF-16 unit).
 */
export function stringEnd(buf: Buffer, q: number, end: number): number {
  let units = 0;
  let ascii = true;
  while (q < end) {
    const b = buf[q] as number;
    if (b === QUOTE) {
      stringWasAscii = ascii;
      stringUnits = units;
      return q;
    }
    if (b < SPACE) return -1;
    units++;
    if (b === BACKSLASH) {
      const e = buf[q + 1] as number;
      if (e === 0x75 /* u */) {
        if (q + 6 > end || !isHex(buf[q + 2]) || !isHex(buf[q + 3]) || !isHex(buf[q + 4]) || !isHex(buf[q + 5])) return -1;
        q += 6;
        continue;
      }
      // " \ / b f n r t
      if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        q += 2;
        continue;
      }
      return -1;
    }
    if (b >= 0x80) ascii = false;
    q++;
  }
  return -1;
}

/** The string whose content is bytes [s0, q) (q at the closing quote), escapes resolved. */
function decodeString(buf: Buffer, s0: number, q: number): string {
  // Decoding only the string's bytes gives the characters decoding the whole input gives:
  // its bounds are quotes, which are never part of a multi-byte sequence.
  return JSON.parse(buf.toString('utf8', s0 - 1, q + 1)) as string;
}

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= ZERO && b <= NINE) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46));
}

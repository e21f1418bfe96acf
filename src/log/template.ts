/**
 * A line's template: its message with variables replaced by typed placeholders, so that
 * lines of the same event share one key. This is the hot path of condense_log: one pass
 * over the characters, no regex per token, and an early exit for digit-free text (most
 * words are not variables, and a variable almost always holds a digit).
 */

export const MAX_TEMPLATE_CHARS = 400;

// Set by the last templateOf call: whether it wrote a <HEX>. Read straight after the call
// (templateHadHex) so that the hot path need not scan the template again.
let hexWritten = false;

/** Whether the template just made holds a <HEX> placeholder. */
export function templateHadHex(): boolean {
  return hexWritten;
}

const enum Ch {
  Tab = 9,
  Space = 32,
  Quote = 34,
  Apos = 39,
  LParen = 40,
  RParen = 41,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Semi = 59,
  Lt = 60,
  Eq = 61,
  Gt = 62,
  UpperA = 65,
  UpperF = 70,
  UpperZ = 90,
  LBracket = 91,
  RBracket = 93,
  LowerA = 97,
  LowerF = 102,
  LowerX = 120,
  LowerZ = 122,
  LBrace = 123,
  Pipe = 124,
  RBrace = 125,
}

// Characters that end a token. `:`, `.`, `/`, `-`, `_` and `@` stay inside tokens so that
// addresses, paths and ids are classified whole.
const DELIMITER = new Uint8Array(128);
for (const c of [Ch.Tab, Ch.Space, Ch.Quote, Ch.Apos, Ch.LParen, Ch.RParen, Ch.Comma, Ch.Semi, Ch.Lt, Ch.Eq, Ch.Gt, Ch.LBracket, Ch.RBracket, Ch.LBrace, Ch.Pipe, Ch.RBrace]) {
  DELIMITER[c] = 1;
}

const isDigit = (c: number): boolean => c >= Ch.Zero && c <= Ch.Nine;
const isHexLetter = (c: number): boolean => (c >= Ch.LowerA && c <= Ch.LowerF) || (c >= Ch.UpperA && c <= Ch.UpperF);
const isHex = (c: number): boolean => isDigit(c) || isHexLetter(c);
const isAlnum = (c: number): boolean =>
  isDigit(c) || (c >= Ch.LowerA && c <= Ch.LowerZ) || (c >= Ch.UpperA && c <= Ch.UpperZ);

/** The template of `line` from `start`, at most MAX_TEMPLATE_CHARS long. */
export function templateOf(line: string, start = 0): string {
  hexWritten = false;
  const end = Math.min(line.length, start + MAX_TEMPLATE_CHARS * 2);
  let firstDigit = -1;
  for (let i = start; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c <= Ch.Nine && c >= Ch.Zero) {
      firstDigit = i;
      break;
    }
  }
  if (firstDigit < 0) return capTemplate(start === 0 && end === line.length ? line : line.slice(start, end));

  // Back up to the start of the token holding the first digit; everything before is verbatim.
  let tokenStart = firstDigit;
  while (tokenStart > start) {
    const c = line.charCodeAt(tokenStart - 1);
    if (c < 128 && DELIMITER[c] === 1) break;
    tokenStart--;
  }
  // Copy verbatim runs as whole slices; only variables cost a concatenation.
  let out = '';
  let copyFrom = start;
  let i = tokenStart;
  while (i < end) {
    const c = line.charCodeAt(i);
    if (c < 128 && DELIMITER[c] === 1) {
      i++;
      continue;
    }
    let j = i + 1;
    let hasDigit = c <= Ch.Nine && c >= Ch.Zero;
    while (j < end) {
      const d = line.charCodeAt(j);
      if (d < 128 && DELIMITER[d] === 1) break;
      if (!hasDigit && d >= Ch.Zero && d <= Ch.Nine) hasDigit = true;
      j++;
    }
    // A MAC address can be all letters; every other variable holds a digit.
    const masked = hasDigit ? maskToken(line, i, j) : j - i === 17 && isMac(line, i) ? '<MAC>' : undefined;
    if (masked !== undefined) {
      out += line.slice(copyFrom, i) + masked;
      copyFrom = j;
      if (out.length > MAX_TEMPLATE_CHARS) return capTemplate(out);
    }
    i = j;
  }
  return capTemplate(copyFrom === start ? line.slice(start, end) : out + line.slice(copyFrom, end));
}

function capTemplate(t: string): string {
  return t.length > MAX_TEMPLATE_CHARS ? `${t.slice(0, MAX_TEMPLATE_CHARS)}…` : t;
}

/** A token that holds a digit, classified whole first, then part by part. */
function maskToken(s: string, a: number, b: number): string {
  // Trailing sentence punctuation is not part of the value ("port 8080." "from 10.0.0.1:").
  let suffix = '';
  while (b - a > 1) {
    const c = s.charCodeAt(b - 1);
    if (c === Ch.Dot || c === Ch.Colon) {
      b--;
      suffix = s[b] + suffix;
    } else break;
  }
  const len = b - a;
  if (allDigits(s, a, b)) return s.charCodeAt(a - 1) === Ch.LBracket && s.charCodeAt(b) === Ch.RBracket ? `<PID>${suffix}` : `<NUM>${suffix}`;
  if (s.charCodeAt(a - 1) === Ch.LBracket && s.charCodeAt(b) === Ch.RBracket && isPidTid(s, a, b)) return `<PID>${suffix}`;
  if (len === 36 && isUuid(s, a)) return `<UUID>${suffix}`;
  if (len > 2 && s.charCodeAt(a) === Ch.Zero && (s.charCodeAt(a + 1) | 32) === Ch.LowerX && allHex(s, a + 2, b)) {
    hexWritten = true;
    return `<HEX>${suffix}`;
  }
  if (len === 17 && isMac(s, a)) return `<MAC>${suffix}`;
  if (isIpv4(s, a, b)) return `<IP>${suffix}`;
  if (isColonHex(s, a, b)) return `<IP>${suffix}`;
  return maskParts(s, a, b) + suffix;
}

/** `123` or `123:456` between brackets: a pid, or pid and thread. */
function isPidTid(s: string, a: number, b: number): boolean {
  let colons = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c === Ch.Colon) {
      if (++colons > 1 || i === a || i === b - 1) return false;
    } else if (!isHex(c)) return false;
  }
  return isDigit(s.charCodeAt(a));
}

function isUuid(s: string, a: number): boolean {
  for (let k = 0; k < 36; k++) {
    const c = s.charCodeAt(a + k);
    if (k === 8 || k === 13 || k === 18 || k === 23) {
      if (c !== Ch.Minus) return false;
    } else if (!isHex(c)) return false;
  }
  return true;
}

/** aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff. */
function isMac(s: string, a: number): boolean {
  const sep = s.charCodeAt(a + 2);
  if (sep !== Ch.Colon && sep !== Ch.Minus) return false;
  for (let k = 0; k < 17; k++) {
    const c = s.charCodeAt(a + k);
    if (k % 3 === 2) {
      if (c !== sep) return false;
    } else if (!isHex(c)) return false;
  }
  return true;
}

function allDigits(s: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c < Ch.Zero || c > Ch.Nine) return false;
  }
  return true;
}

function allHex(s: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!isHex(s.charCodeAt(i))) return false;
  return b > a;
}

/** Dotted quad, optionally with `:port`. */
function isIpv4(s: string, a: number, b: number): boolean {
  let dots = 0;
  let run = 0;
  let i = a;
  for (; i < b; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c)) {
      if (++run > 3) return false;
    } else if (c === Ch.Dot) {
      if (run === 0 || ++dots > 3) return false;
      run = 0;
    } else if (c === Ch.Colon && dots === 3 && run > 0) {
      for (let k = i + 1; k < b; k++) if (!isDigit(s.charCodeAt(k))) return false;
      return i + 1 < b;
    } else return false;
  }
  return dots === 3 && run > 0;
}

/** IPv6 addresses: hex groups joined by colons, with `::` or at least six groups. */
function isColonHex(s: string, a: number, b: number): boolean {
  let colons = 0;
  let doubleColon = false;
  let run = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c === Ch.Colon) {
      if (run === 0 && i > a) doubleColon = true;
      colons++;
      run = 0;
    } else if (isHex(c)) {
      if (++run > 4) return false;
    } else if (c !== Ch.Dot) return false;
  }
  return doubleColon ? colons >= 2 : colons >= 5;
}

/**
 * Alphanumeric runs inside a token: all digits become <NUM> (a decimal point included),
 * hex-looking runs of six or more become <HEX>, and other runs keep their letters with
 * their digit runs replaced (`worker12` and `worker13` share `worker<NUM>`).
 */
function maskParts(s: string, a: number, b: number): string {
  let out = '';
  let i = a;
  while (i < b) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c)) {
      out += s[i];
      i++;
      continue;
    }
    let j = i;
    let digits = 0;
    let hexLetters = 0;
    let otherLetters = 0;
    while (j < b) {
      const d = s.charCodeAt(j);
      if (isDigit(d)) digits++;
      else if (isHexLetter(d)) hexLetters++;
      else if (isAlnum(d)) otherLetters++;
      else break;
      j++;
    }
    if (digits === 0) {
      out += s.slice(i, j);
    } else if (hexLetters === 0 && otherLetters === 0) {
      // A decimal number: swallow `.digits` so that 3.14 is one placeholder.
      if (s.charCodeAt(j) === Ch.Dot && isDigit(s.charCodeAt(j + 1))) {
        j++;
        while (j < b && isDigit(s.charCodeAt(j))) j++;
      }
      out += '<NUM>';
    } else if (otherLetters === 0 && j - i >= 6) {
      hexWritten = true;
      out += '<HEX>';
    } else {
      for (let k = i; k < j; ) {
        if (isDigit(s.charCodeAt(k))) {
          while (k < j && isDigit(s.charCodeAt(k))) k++;
          out += '<NUM>';
        } else {
          out += s[k];
          k++;
        }
      }
    }
    i = j;
  }
  return out;
}

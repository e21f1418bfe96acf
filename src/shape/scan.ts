/**
 * A strict JSON syntax scan for explaining why JSON.parse failed: where, and whether the
 * text simply stops (truncated), holds a complete value and then more (JSON Lines or
 * concatenated documents), or breaks the grammar. Used only on the error path; it never
 * builds values and keeps its container stack in an array, so any depth is fine.
 * V8's messages change between versions and sometimes carry no position; this doesn't.
 */

export type Diagnosis =
  | { kind: 'valid' }
  | { kind: 'truncated'; openObjects: number; openArrays: number; inString: boolean }
  | { kind: 'trailing'; offset: number }
  | { kind: 'syntax'; offset: number; reason: string };

const OBJECT = 1;
const ARRAY = 2;

export function diagnose(text: string): Diagnosis {
  const n = text.length;
  const stack: number[] = [];
  let i = 0;
  const truncated = (inString: boolean): Diagnosis => {
    let openObjects = 0;
    for (const c of stack) if (c === OBJECT) openObjects++;
    return { kind: 'truncated', openObjects, openArrays: stack.length - openObjects, inString };
  };
  const unexpected = (at: number, expected: string): Diagnosis => ({
    kind: 'syntax',
    offset: at,
    reason: `unexpected ${describeChar(text, at)}, expected ${expected}`,
  });
  const skipSpace = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      i++;
    }
  };

  // After a value: close containers or expect the next member.
  let expectValue = true;
  for (;;) {
    skipSpace();
    if (expectValue) {
      if (i >= n) return stack.length === 0 && i === 0 ? { kind: 'syntax', offset: 0, reason: 'no value' } : truncated(false);
      const c = text.charCodeAt(i);
      if (c === 123 /* { */) {
        i++;
        skipSpace();
        if (i < n && text.charCodeAt(i) === 125) {
          i++;
          expectValue = false;
          continue;
        }
        stack.push(OBJECT);
        const keyResult = scanKey();
        if (keyResult !== undefined) return keyResult;
        continue;
      }
      if (c === 91 /* [ */) {
        i++;
        skipSpace();
        if (i < n && text.charCodeAt(i) === 93) {
          i++;
          expectValue = false;
          continue;
        }
        stack.push(ARRAY);
        continue;
      }
      const scalar = scanScalar();
      if (scalar !== undefined) return scalar;
      expectValue = false;
      continue;
    }
    // A value just ended.
    const container = stack[stack.length - 1];
    if (container === undefined) {
      if (i >= n) return { kind: 'valid' };
      return { kind: 'trailing', offset: i };
    }
    if (i >= n) return truncated(false);
    const c = text.charCodeAt(i);
    if (c === 44 /* , */) {
      i++;
      if (container === OBJECT) {
        skipSpace();
        const keyResult = scanKey();
        if (keyResult !== undefined) return keyResult;
      }
      expectValue = true;
      continue;
    }
    if ((container === OBJECT && c === 125) || (container === ARRAY && c === 93)) {
      i++;
      stack.pop();
      continue;
    }
    return unexpected(i, container === OBJECT ? "',' or '}'" : "',' or ']'");
  }

  // A key and its colon; leaves i at the value. Returns a diagnosis only on failure.
  function scanKey(): Diagnosis | undefined {
    skipSpace();
    if (i >= n) return truncated(false);
    if (text.charCodeAt(i) !== 34) return unexpected(i, 'a double-quoted key');
    const s = scanString();
    if (s !== undefined) return s;
    skipSpace();
    if (i >= n) return truncated(false);
    if (text.charCodeAt(i) !== 58) return unexpected(i, "':'");
    i++;
    expectValue = true;
    return undefined;
  }

  function scanString(): Diagnosis | undefined {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return undefined;
      }
      if (c < 32) return { kind: 'syntax', offset: i, reason: 'unescaped control character in a string' };
      if (c === 92) {
        if (i + 1 >= n) return truncated(true);
        const e = text.charCodeAt(i + 1);
        if (e === 117 /* u */) {
          for (let k = 2; k < 6; k++) {
            if (i + k >= n) return truncated(true);
            if (!isHex(text.charCodeAt(i + k))) return { kind: 'syntax', offset: i, reason: 'bad \\u escape in a string' };
          }
          i += 6;
          continue;
        }
        if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
          i += 2;
          continue;
        }
        return { kind: 'syntax', offset: i, reason: 'bad escape in a string' };
      }
      i++;
    }
    return truncated(true);
  }

  function scanScalar(): Diagnosis | undefined {
    const c = text.charCodeAt(i);
    if (c === 34) return scanString();
    if (c === 45 || isDigit(c)) return scanNumber();
    for (const literal of ['true', 'false', 'null']) {
      if (c !== literal.charCodeAt(0)) continue;
      for (let k = 0; k < literal.length; k++) {
        if (i + k >= n) return truncated(false);
        if (text.charCodeAt(i + k) !== literal.charCodeAt(k)) return unexpected(i + k, `'${literal}'`);
      }
      i += literal.length;
      return undefined;
    }
    return unexpected(i, 'a value');
  }

  function scanNumber(): Diagnosis | undefined {
    if (text.charCodeAt(i) === 45) i++;
    if (i >= n) return truncated(false);
    if (text.charCodeAt(i) === 48) {
      i++;
    } else if (isDigit(text.charCodeAt(i))) {
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    } else {
      return unexpected(i, 'a digit');
    }
    if (i < n && text.charCodeAt(i) === 46) {
      i++;
      if (i >= n) return truncated(false);
      if (!isDigit(text.charCodeAt(i))) return unexpected(i, 'a digit');
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
      i++;
      if (i < n && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++;
      if (i >= n) return truncated(false);
      if (!isDigit(text.charCodeAt(i))) return unexpected(i, 'a digit');
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    return undefined;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** A character as a reader can see it: "x" when printable ASCII, else U+00A0. */
export function describeChar(text: string, at: number): string {
  if (at >= text.length) return 'end of input';
  const code = text.codePointAt(at) ?? 0;
  if (code > 0x20 && code < 0x7f) return JSON.stringify(String.fromCharCode(code));
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** 1-based line and column (in characters) of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  let at = text.indexOf('\n');
  while (at !== -1 && at < offset) {
    line++;
    lineStart = at + 1;
    at = text.indexOf('\n', lineStart);
  }
  return { line, column: offset - lineStart + 1 };
}

/** How the text ends: "inside a string, with 1 object still open", "with 2 arrays still open". */
export function describeOpen(d: { openObjects: number; openArrays: number; inString: boolean }): string {
  const containers: string[] = [];
  if (d.openObjects > 0) containers.push(`${d.openObjects} ${d.openObjects === 1 ? 'object' : 'objects'}`);
  if (d.openArrays > 0) containers.push(`${d.openArrays} ${d.openArrays === 1 ? 'array' : 'arrays'}`);
  const open = containers.length === 0 ? '' : `with ${containers.join(' and ')} still open`;
  if (d.inString) return open === '' ? 'inside a string' : `inside a string, ${open}`;
  return open === '' ? 'inside a value' : open;
}

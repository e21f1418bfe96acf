/**
 * Secrets written escaped: a URL's `?token%3Dghp_...`, a form body's `password%3DS3cr3t`,
 * a JSON string's `\u0022password\u0022:\u0022S3cr3t\u0022`. The rules read text as it is
 * written, and an escape hides the separator or the quote they look for. So a text with
 * `%XX` or `\uXXXX` escapes is also redacted as a decoded view, and what the rules remove
 * from the view is removed from the text as written: the escaped secret, escapes and all.
 * Everything else is shown as it was written.
 */
import { keywords } from './conditions.js';
import type { Rule } from './rule.js';

const HAS_ESCAPE = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}/;

/**
 * Not a rule that changes anything: its condition, an escape, is what tells the scan (and
 * so the byte screen) that redact() reads the text decoded too. A keyword of the scan's
 * automaton rather than a pass of its own, so text without escapes costs nothing more.
 */
export const ESCAPED_TEXT: Rule = {
  name: 'escaped-text',
  when: [keywords([...'0123456789abcdef'].map((h) => `%${h}`)), keywords(['\\u'])],
  pattern: new RegExp(HAS_ESCAPE.source, 'g'),
  replace: (m) => m.text,
};
/** A marker in the redacted view (marker.ts builds them). */
const MARKER = /\[REDACTED:[^\]\s]{1,64}\]/g;

/**
 * A text with its escapes decoded, and where each decoded character stands in the text as
 * written: decoded character d is written at [at[d], at[d + 1]).
 */
export interface DecodedView {
  text: string;
  at: Int32Array;
}

const hexAt = (s: string, i: number, n: number): number => (i + n <= s.length && /^[0-9A-Fa-f]+$/.test(s.slice(i, i + n)) ? Number.parseInt(s.slice(i, i + n), 16) : -1);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The decoded view of `text`, or undefined when it holds no escape. */
export function decodeEscapes(text: string): DecodedView | undefined {
  if (!HAS_ESCAPE.test(text)) return undefined;
  const parts: string[] = [];
  const at: number[] = [];
  const add = (decoded: string, from: number, to: number): void => {
    // A character made of several escapes covers them all; the ones after it in the same
    // run cover none (a `%F0%9F%98%80` run is one code point, two UTF-16 units).
    for (let k = 0; k < decoded.length; k++) at.push(k === 0 ? from : to);
    parts.push(decoded);
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */ && text[i + 1] === 'u') {
      const unit = hexAt(text, i + 2, 4);
      if (unit >= 0) {
        add(String.fromCharCode(unit), i, i + 6);
        i += 6;
        continue;
      }
    }
    if (c === 0x25 /* % */) {
      const first = hexAt(text, i + 1, 2);
      if (first >= 0 && first < 0x80) {
        add(String.fromCharCode(first), i, i + 3);
        i += 3;
        continue;
      }
      if (first >= 0x80) {
        // A run of UTF-8 bytes: decoded whole, or left as written when it is not UTF-8.
        const bytes: number[] = [];
        let j = i;
        while (text.charCodeAt(j) === 0x25 && hexAt(text, j + 1, 2) >= 0x80) {
          bytes.push(hexAt(text, j + 1, 2));
          j += 3;
        }
        try {
          add(utf8.decode(Uint8Array.from(bytes)), i, j);
        } catch {
          for (let k = i; k < j; k++) add(text[k]!, k, k + 1);
        }
        i = j;
        continue;
      }
    }
    add(text[i]!, i, i + 1);
    i++;
  }
  at.push(text.length);
  return { text: parts.join(''), at: Int32Array.from(at) };
}

/**
 * `text` with what `redactView` removes from its decoded view removed from it as written.
 * `redactView` replaces what it removes with markers and leaves the rest as it is.
 */
export function redactEscaped(text: string, redactView: (view: string) => string): string {
  const view = decodeEscapes(text);
  if (view === undefined) return text;
  const redacted = redactView(view.text);
  if (redacted === view.text) return text;
  return mapBack(text, view, redacted) ?? changedMiddle(text, view, redacted);
}

/**
 * The redacted view is the view with some spans replaced by markers: kept pieces and
 * markers, alternating. Each kept piece is found in the view after the one before it, and
 * is shown as written; each marker takes the place of the span between two kept pieces.
 * Where a kept piece could be found in more than one place, whichever is taken shows
 * only the text of that piece: nothing the rules removed.
 */
function mapBack(text: string, view: DecodedView, redacted: string): string | undefined {
  const decoded = view.text;
  const written = (from: number, to: number): string => text.slice(view.at[from], view.at[to]);
  const markers = [...redacted.matchAll(MARKER)];
  const pieces: string[] = [];
  let last = 0;
  for (const m of markers) {
    pieces.push(redacted.slice(last, m.index));
    last = m.index + m[0].length;
  }
  pieces.push(redacted.slice(last));
  if (!decoded.startsWith(pieces[0]!)) return undefined;
  let cursor = pieces[0]!.length;
  let out = written(0, cursor);
  for (let k = 0; k < markers.length; k++) {
    const piece = pieces[k + 1]!;
    const isLast = k === markers.length - 1;
    const start = isLast ? decoded.length - piece.length : decoded.indexOf(piece, cursor + 1);
    if (start < cursor || (isLast && !decoded.endsWith(piece)) || start === -1) return undefined;
    out += markers[k]![0] + written(start, start + piece.length);
    cursor = start + piece.length;
  }
  return out;
}

/** Should the pieces not line up: the text as written around what changed, the redacted view in between. */
function changedMiddle(text: string, view: DecodedView, redacted: string): string {
  const decoded = view.text;
  let head = 0;
  while (head < decoded.length && head < redacted.length && decoded[head] === redacted[head]) head++;
  let tail = 0;
  while (tail < decoded.length - head && tail < redacted.length - head && decoded[decoded.length - 1 - tail] === redacted[redacted.length - 1 - tail]) tail++;
  return text.slice(0, view.at[head]) + redacted.slice(head, redacted.length - tail) + text.slice(view.at[decoded.length - tail]);
}

/**
 * Long text is redacted in segments so that the regex work and the intermediate strings
 * stay bounded whatever the input. A segment ends at a newline or a space where it can,
 * so that a secret is not split between two segments; text without either is cut hard
 * (a 1 MB run of base64 holds no secret a rule could have found anyway).
 */

/** Past this length, text is redacted segment by segment. */
export const SEGMENT_LENGTH = 64 * 1024;
/** How far back from the segment end to look for a newline or space. */
const LOOK_BACK = 8 * 1024;

/** Where to end the segment that starts at `start` in `text`. */
export function segmentEnd(text: string, start: number, length = SEGMENT_LENGTH): number {
  const limit = start + length;
  if (limit >= text.length) return text.length;
  const floor = Math.max(start + 1, limit - LOOK_BACK);
  let cut = text.lastIndexOf('\n', limit);
  if (cut < floor) cut = Math.max(text.lastIndexOf(' ', limit), text.lastIndexOf('\t', limit));
  if (cut < floor) return limit;
  // Do not separate a private key's BEGIN line (which holds spaces) from its body.
  const begin = text.lastIndexOf('-----BEGIN', cut);
  if (begin > floor && text.lastIndexOf('-----END', cut) < begin) cut = begin;
  return cut + 1 > start ? (text[cut] === '-' ? cut : cut + 1) : limit;
}

/** Splits `text` into segments at safe boundaries and maps each through `fn`. */
export function mapSegments(text: string, fn: (segment: string) => string, length = SEGMENT_LENGTH): string {
  if (text.length <= length) return fn(text);
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = segmentEnd(text, start, length);
    parts.push(fn(text.slice(start, end)));
    start = end;
  }
  return parts.join('');
}

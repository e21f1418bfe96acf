/**
 * JSON or JSON Lines, and what is wrong when it is neither.
 *
 * Rule: the input is one JSON document when the whole parses; JSON Lines when it does
 * not, its first non-blank line parses on its own, and so does every other non-blank line
 * (checked while shaping them). Otherwise the error names the first bad position, says
 * when the text looks truncated (it stops inside a value), and says when it is several
 * pretty-printed documents one after another.
 */
import { WispError } from '../errors.js';
import { isBlank } from './lines.js';
import { describeChar, describeOpen, diagnose, lineAndColumn } from './scan.js';

export type Detected = { kind: 'document'; value: unknown } | { kind: 'lines' } | { kind: 'deep' };

export function detect(text: string): Detected {
  try {
    return { kind: 'document', value: JSON.parse(text) };
  } catch (err) {
    return explainFailure(text, err);
  }
}

function explainFailure(text: string, err: unknown): Detected {
  if (firstLineParses(text)) return { kind: 'lines' };
  const d = diagnose(text);
  switch (d.kind) {
    case 'valid':
      // The grammar is fine, so JSON.parse ran out of something (stack, memory): walk tokens.
      if (err instanceof RangeError) return { kind: 'deep' };
      throw new WispError('WISP_NOT_JSON', `not JSON: ${(err as Error).message}`);
    case 'truncated':
      throw new WispError(
        'WISP_TRUNCATED_JSON',
        `input looks truncated: it ends ${describeOpen(d)}`,
        'input cut to fit is refused because a document without its end does not parse; pass the whole document',
      );
    case 'trailing': {
      const { line, column } = lineAndColumn(text, d.offset);
      if (startsValue(text.charCodeAt(d.offset))) {
        throw new WispError(
          'WISP_NOT_JSON',
          `input is several JSON documents one after another, not one document or JSON Lines: the second begins at line ${line}, column ${column}`,
          'wrap them in an array, or print one document per line (jq -c .)',
        );
      }
      throw new WispError('WISP_NOT_JSON', `not JSON: unexpected ${describeChar(text, d.offset)} after the end of the document at line ${line}, column ${column}`);
    }
    case 'syntax': {
      const { line, column } = lineAndColumn(text, d.offset);
      throw new WispError('WISP_NOT_JSON', `not JSON: ${d.reason} at line ${line}, column ${column}`);
    }
  }
}

/** Whether the first non-blank line is a JSON value by itself (and more follows it). */
export function firstLineParses(text: string): boolean {
  let start = 0;
  for (;;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (!isBlank(text, start, end)) {
      if (end >= text.length) return false; // the only line: not JSON Lines
      try {
        JSON.parse(text.slice(start, end));
        return true;
      } catch {
        return false;
      }
    }
    if (end >= text.length) return false;
    start = end + 1;
  }
}

function startsValue(c: number): boolean {
  // { [ " - digit t f n
  return c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110;
}

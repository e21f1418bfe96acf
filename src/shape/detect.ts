/**
 * JSON or JSON Lines, and what is wrong when it is neither.
 *
 * Rule: the input is one JSON document when the whole parses (the byte walker shapes it
 * as it parses); JSON Lines when it does not, its first non-blank line parses on its own,
 * and so does every other non-blank line (checked while shaping them). Otherwise the error names the first bad position, says
 * when the text looks truncated (it stops inside a value), and says when it is several
 * pretty-printed documents one after another.
 */
import { WispError } from '../core/errors.js';
import { ByteWalker } from './byte-walk.js';
import { isBlankBytes, isJsonSpace } from './lines.js';
import { newNode, type ShapeNode } from './node.js';
import { describeChar, describeOpen, diagnose, lineAndColumn } from './scan.js';

export type Detected = { kind: 'document'; root: ShapeNode; values: number } | { kind: 'lines' };

/**
 * Shape `bytes` as one document, or say it is JSON Lines; otherwise throw the error that
 * explains why it is neither. `text` gives the decoded text, needed only for that error.
 */
export function detect(bytes: Buffer, text: () => string): Detected {
  const root = newNode(0, 0);
  const walker = new ByteWalker();
  const after = walker.value(root, bytes, 0, bytes.length, 0, 0);
  if (after >= 0 && isJsonSpace(bytes, after, bytes.length)) return { kind: 'document', root, values: walker.next };
  if (startsAsJsonLines(bytes)) return { kind: 'lines' };
  return explainFailure(text());
}

/** Throws the error for text that is neither one document nor JSON Lines. */
function explainFailure(text: string): never {
  let err: unknown;
  try {
    JSON.parse(text);
  } catch (caught) {
    err = caught;
  }
  const d = diagnose(text);
  switch (d.kind) {
    case 'valid':
      // Only a difference between the walker's grammar and JSON's gets here.
      throw new WispError('WISP_INTERNAL', `the byte walker refused a document that is valid JSON${err === undefined ? '' : ` (JSON.parse: ${(err as Error).message})`}`, { cause: err });
    case 'truncated':
      throw new WispError(
        'WISP_TRUNCATED_JSON',
        `input looks truncated: it ends ${describeOpen(d)}`,
        { hint: 'input cut to fit is refused because a document without its end does not parse; pass the whole document' },
      );
    case 'trailing': {
      const { line, column } = lineAndColumn(text, d.offset);
      if (startsValue(text.charCodeAt(d.offset))) {
        throw new WispError(
          'WISP_NOT_JSON',
          `input is several JSON documents one after another, not one document or JSON Lines: the second begins at line ${line}, column ${column}`,
          { hint: 'wrap them in an array, or print one document per line (jq -c .)' },
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

/**
 * Whether `bytes` start as JSON Lines: the first non-blank line ends in '\n', is a JSON
 * value on its own, and more than whitespace follows it (a lone line is a document). For
 * streamed input `bytes` is the head that was read.
 */
export function startsAsJsonLines(bytes: Buffer): boolean {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) return false; // no complete line: a document
    if (!isBlankBytes(bytes, start, end)) {
      try {
        JSON.parse(bytes.toString('utf8', start, end));
      } catch {
        return false;
      }
      return !isJsonSpace(bytes, end + 1, bytes.length);
    }
    start = end + 1;
  }
}

function startsValue(c: number): boolean {
  // { [ " - digit t f n
  return c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110;
}

/**
 * The outline walk over a token stream, for a single document too large to hold: text
 * goes through stream-json's tokenizer (called directly, without Node streams, which cost
 * several times more) and tokens are observed in document order with the same observe
 * functions and positions as the in-memory walk. Memory is the tokenizer's buffer plus the
 * open containers (at most the depth cap; deeper ones are counted, not tracked).
 */
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { WispError } from '../core/errors.js';
import { MAX_DEPTH, newNode, type ShapeNode } from './node.js';
import {
  childOf,
  closeObject,
  itemsOf,
  observeArray,
  observeBoolean,
  observeNull,
  observeNumber,
  observeString,
  observeUnexpanded,
  openObject,
  nextObjectSerial,
  stampChild,
} from './observe.js';
import { formatChecked } from './formats.js';
import { throwIfAborted } from './options.js';
import { formatCount } from './text.js';

/** stream-chain's flush marker (a registered symbol, so no import of stream-chain is needed). */
const FLUSH = Symbol.for('object-stream.none');

interface Frame {
  node: ShapeNode;
  isArray: boolean;
  /** Elements or keys seen so far. */
  size: number;
  /** For objects: the node the next value goes to (set by its key). */
  target: ShapeNode | undefined;
  /** For objects: tells a repeated key (see stampChild). */
  serial: number;
}

export interface TokenOutcome {
  root: ShapeNode;
  values: number;
}

export async function shapeTokenStream(texts: AsyncIterable<string> | Iterable<string>, signal: AbortSignal | undefined): Promise<TokenOutcome> {
  const tokenize = jsonParser({ packValues: true, streamValues: false }) as unknown as (chunk: string | symbol) => unknown;
  const root = newNode(0, 0);
  const frames: Frame[] = [];
  let pos = 0;
  let done = false;
  /** Depth of containers being skipped below the cap (0 = not skipping). */
  let skipping = 0;
  let skipFrame: { node: ShapeNode; isArray: boolean; size: number } | undefined;
  let charsFed = 0;

  /** The node the next value goes to, and its position. */
  const nextTarget = (): ShapeNode => {
    const top = frames[frames.length - 1];
    if (top === undefined) {
      if (done) throw anotherDocument(charsFed);
      return root;
    }
    if (top.isArray) {
      top.size++;
      return itemsOf(top.node, 0, pos);
    }
    const target = top.target;
    if (target === undefined) throw new Error('value without a key');
    top.target = undefined;
    return target;
  };
  const valueDone = (): void => {
    if (frames.length === 0) done = true;
  };

  const onToken = (t: Token): void => {
    if (skipping > 0) {
      if (t.name === 'startObject' || t.name === 'startArray') {
        if (skipping === 1 && skipFrame !== undefined && skipFrame.isArray) skipFrame.size++;
        skipping++;
      } else if (t.name === 'endObject' || t.name === 'endArray') {
        skipping--;
        if (skipping === 0 && skipFrame !== undefined) {
          observeUnexpanded(skipFrame.node, skipFrame.isArray, skipFrame.size);
          skipFrame = undefined;
          valueDone();
        }
      } else if (skipping === 1 && skipFrame !== undefined) {
        if (skipFrame.isArray ? t.name !== 'keyValue' : t.name === 'keyValue') skipFrame.size++;
      }
      return;
    }
    switch (t.name) {
      case 'startObject':
      case 'startArray': {
        const n = nextTarget();
        pos++;
        const isArray = t.name === 'startArray';
        if (frames.length >= MAX_DEPTH) {
          skipping = 1;
          skipFrame = { node: n, isArray, size: 0 };
          return;
        }
        if (!isArray) openObject(n);
        frames.push({ node: n, isArray, size: 0, target: undefined, serial: isArray ? 0 : nextObjectSerial() });
        return;
      }
      case 'endObject':
      case 'endArray': {
        const f = frames.pop();
        if (f === undefined) throw new Error('unbalanced tokens');
        if (f.isArray) observeArray(f.node, f.size);
        else closeObject(f.node, f.size);
        valueDone();
        return;
      }
      case 'keyValue': {
        const top = frames[frames.length - 1];
        if (top === undefined || top.isArray) throw new Error('key outside an object');
        top.size++;
        top.target = childOf(top.node, t.value, 0, pos);
        stampChild(top.node, top.target, top.serial);
        return;
      }
      case 'stringValue': {
        const n = nextTarget();
        observeString(n, t.value, 0, pos, formatChecked(0, pos));
        pos++;
        valueDone();
        return;
      }
      case 'numberValue': {
        const n = nextTarget();
        pos++;
        observeNumber(n, Number(t.value));
        valueDone();
        return;
      }
      case 'trueValue':
      case 'falseValue': {
        const n = nextTarget();
        pos++;
        observeBoolean(n, t.name === 'trueValue');
        valueDone();
        return;
      }
      case 'nullValue': {
        const n = nextTarget();
        pos++;
        observeNull(n);
        valueDone();
        return;
      }
      default:
        return;
    }
  };

  const feed = (chunk: string | symbol): void => {
    let result: unknown;
    try {
      result = tokenize(chunk);
    } catch (err) {
      if (err instanceof WispError) throw err;
      if (chunk === FLUSH) throw truncated(charsFed, frames.length + skipping);
      if (done) throw anotherDocument(charsFed);
      throw new WispError(
        'WISP_NOT_JSON',
        `not JSON: the tokenizer stopped (${(err as Error).message}) within characters ${formatCount(charsFed - (chunk as string).length + 1)}-${formatCount(charsFed)}`,
      );
    }
    const tokens = (result as { values?: Token[] } | undefined)?.values;
    if (tokens !== undefined) for (const t of tokens) onToken(t);
  };

  for await (const text of texts) {
    throwIfAborted(signal);
    charsFed += text.length;
    feed(text);
  }
  feed(FLUSH);
  if (!done || frames.length > 0 || skipping > 0) throw truncated(charsFed, frames.length + skipping);
  return { root, values: pos };
}

function anotherDocument(chars: number): WispError {
  return new WispError(
    'WISP_NOT_JSON',
    `input holds more than one JSON document: another begins after the first ends (within the first ${formatCount(chars)} characters)`,
    { hint: 'wrap the documents in an array, or print one per line as JSON Lines (jq -c .)' },
  );
}

function truncated(chars: number, open: number): WispError {
  return new WispError(
    'WISP_TRUNCATED_JSON',
    `input looks truncated: it ends after ${formatCount(chars)} characters with ${open > 0 ? `${open} ${open === 1 ? 'container' : 'containers'} still open` : 'a value unfinished'}`,
    { hint: 'input cut to fit is refused; pass the whole document' },
  );
}

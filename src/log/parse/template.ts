/**
 * A line's template: its message with variables replaced by typed placeholders, so that
 * lines of the same event share one key.
 *
 * The scan itself is native (native/src/template.c, the one implementation of its rules):
 * condense_log's hot path, one pass over a message's UTF-8 bytes that computes a 53-bit
 * hash of the template (the group key) and records where the verbatim runs and
 * placeholders are, in a state array this class owns. The template's text is built here,
 * only when a group is new, which is rare after the first lines.
 */
import { WispError } from '../../core/errors.js';
import { addressOf, nativeLibrary } from '../../native/library.js';

export const MAX_TEMPLATE_CHARS = 400;
/** Bytes of a message that shape its template; past them the template ends with `…` (WISP_TEMPLATE_BYTES). */
export const MAX_TEMPLATE_BYTES = MAX_TEMPLATE_CHARS * 2;
/** The state's layout, as native/include/wisp.h gives it. */
export const TEMPLATE_STATE = { segments: 2 * MAX_TEMPLATE_BYTES + 8, h1: 0, h2: 1, budget: 2, cut: 3, segs: 4, head: 8 } as const;
/** Where the two hashes start (WISP_TEMPLATE_H1_SEED, WISP_TEMPLATE_H2_SEED): the native chunk pass starts its templates there too. */
export const TEMPLATE_SEED = { h1: 0x811c9dc5, h2: 0x3c6ef372 } as const;

const VERBATIM = 0;
const PLACEHOLDER = ['', '<NUM>', '<HEX>', '<UUID>', '<IP>', '<MAC>', '<PID>'];
const { segments: SEGMENTS, head: HEAD } = TEMPLATE_STATE;
const FROM = HEAD;
const TO = HEAD + SEGMENTS;
const KIND = HEAD + 2 * SEGMENTS;

/**
 * Scans message bytes into a template. Reused across lines: `begin`, one or more `add`
 * ranges, then `key()` (always) and `text()` (only for a new group).
 */
export class TemplateScanner {
  #buf: Buffer = Buffer.alloc(0);
  /** Off the JavaScript heap (an ArrayBuffer's own memory), so its address stays while this scanner holds it. */
  readonly #state = new Int32Array(new ArrayBuffer(4 * (HEAD + 3 * SEGMENTS)));
  readonly #address = addressOf(this.#state);
  readonly #add = nativeLibrary().templateAdd;

  /** The buffer the template was scanned from (placeholder ranges point into it). */
  get buffer(): Buffer {
    return this.#buf;
  }

  begin(buf: Buffer): this {
    this.#buf = buf;
    const st = this.#state;
    st[TEMPLATE_STATE.h1] = TEMPLATE_SEED.h1;
    st[TEMPLATE_STATE.h2] = TEMPLATE_SEED.h2;
    st[TEMPLATE_STATE.budget] = MAX_TEMPLATE_BYTES;
    st[TEMPLATE_STATE.cut] = 0;
    st[TEMPLATE_STATE.segs] = 0;
    return this;
  }

  /** Adds the template of bytes [start, end) of the buffer given to begin. */
  add(start: number, end: number): this {
    const buf = this.#buf;
    if (this.#add(buf, buf.length, start, end, this.#address) !== 0) {
      throw new WispError('WISP_INTERNAL', `template scan of bytes ${start}-${end} of a ${buf.length}-byte buffer was refused`);
    }
    return this;
  }

  /**
   * The group key: 53 bits of two independent 32-bit hashes. <HEX> hashes as <NUM>,
   * because a bare hex id is all digits now and then (a 7-digit short sha, 4% of the
   * time) and such a line should not split off a group of its own.
   */
  key(): number {
    const st = this.#state;
    const h1 = st[TEMPLATE_STATE.cut] === 1 ? Math.imul(st[TEMPLATE_STATE.h1]! ^ 0xff, 0x01000193) : st[TEMPLATE_STATE.h1]!;
    return (h1 >>> 0) * 2097152 + (st[TEMPLATE_STATE.h2]! >>> 11);
  }

  text(): string {
    const st = this.#state;
    let out = '';
    for (let k = 0, n = st[TEMPLATE_STATE.segs]!; k < n; k++) {
      const kind = st[KIND + k]!;
      out += kind === VERBATIM ? this.#buf.toString('utf8', st[FROM + k], st[TO + k]) : PLACEHOLDER[kind];
    }
    if (out.length > MAX_TEMPLATE_CHARS) return `${out.slice(0, MAX_TEMPLATE_CHARS)}…`;
    return st[TEMPLATE_STATE.cut] === 1 ? `${out}…` : out;
  }

  /**
   * The byte ranges the template's placeholders stand for, in order, as [from, to) pairs
   * into `out` (in the buffer given to begin); returns how many placeholders there are.
   */
  placeholders(out: Int32Array): number {
    const st = this.#state;
    let n = 0;
    for (let k = 0, segs = st[TEMPLATE_STATE.segs]!; k < segs && 2 * n + 1 < out.length; k++) {
      if (st[KIND + k] === VERBATIM) continue;
      out[2 * n] = st[FROM + k]!;
      out[2 * n + 1] = st[TO + k]!;
      n++;
    }
    return n;
  }
}

/**
 * Trace and request ids in a line (`trace_id=4bf92f35`, `"requestId": "req-7"`,
 * `x-request-id: ...`), for precursors on the same trace.
 *
 * The head of an input decides which key its lines use (a log spells its id field one
 * way). Lines are searched for it only where a precursor is wanted: an error's line, and
 * the lines before it.
 */
const KEYS = ['trace', 'Trace', 'TRACE', 'request', 'Request', 'req', 'correlation', 'Correlation', 'span', 'Span'];

// Byte classes by table: 1 letter or digit, 2 also allowed inside an id (`_ - . : /`).
const ID = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) ID[c] = 1;
  else if (c === 95 || c === 45 || c === 46 || c === 58 || c === 47) ID[c] = 2;
}
const isAlnum = (c: number): boolean => ID[c] === 1;

/** Where an id lies in a buffer: [start, end), or start -1 for none. */
export interface IdSpan {
  start: number;
  end: number;
}

/** Per key, how far the search may move on past each byte under the key's last (Horspool's table). */
const shifts = new WeakMap<Buffer, Uint8Array>();

function shiftsOf(key: Buffer): Uint8Array {
  let table = shifts.get(key);
  if (table === undefined) {
    table = new Uint8Array(256).fill(Math.min(key.length, 255));
    for (let k = 0; k < key.length - 1; k++) table[key[k]!] = Math.min(key.length - 1 - k, 255);
    shifts.set(key, table);
  }
  return table;
}

/** The first id after `key` in bytes [s, e) of buf; out.start is -1 when there is none. */
export function findId(buf: Buffer, s: number, e: number, key: Buffer, out: IdSpan): IdSpan {
  out.start = -1;
  // Looked for in the line's bytes alone, here: a view of the line for Buffer's search cost
  // more than the search (it is made for every record of a log read here), and a search
  // of the whole buffer from the line would run past it where the line holds no key.
  // Horspool's search, which reads about one byte in the key's length and finds every
  // place the key stands, leftmost first: most error lines hold no key at all.
  const n = key.length;
  if (n === 0) return out;
  const shift = shiftsOf(key);
  const lastByte = key[n - 1]!;
  next: for (let at = s, last = e - n; at <= last; at += shift[buf[at + n - 1]!]!) {
    if (buf[at + n - 1] !== lastByte) continue;
    for (let k = 0; k < n - 1; k++) if (buf[at + k] !== key[k]) continue next;
    // The key must start a word: `trace`, not `backtrace`.
    if (at > s && isAlnum(buf[at - 1]!)) continue;
    if (valueAfterKey(buf, at + n, e, out)) return out;
  }
  return out;
}

/** After the key: an optional `_id`/`Id`/`-id`, a quote, `=` or `:`, a quote, then the id. */
function valueAfterKey(line: Buffer, i: number, end: number, out: IdSpan): boolean {
  let k = i;
  while (k < end && k - i < 12 && ID[line[k]!] !== 0 && line[k] !== 58 && line[k] !== 47) k++;
  if (k < end && line[k] === 34) k++;
  while (k < end && line[k] === 32) k++;
  if (k >= end || (line[k] !== 61 && line[k] !== 58)) return false;
  k++;
  while (k < end && line[k] === 32) k++;
  if (k < end && line[k] === 34) k++;
  const start = k;
  const limit = Math.min(end, start + 128);
  while (k < limit && ID[line[k]!] !== 0) k++;
  if (k - start < 4 || !isAlnum(line[start]!)) return false;
  out.start = start;
  out.end = k;
  return true;
}

/** A 53-bit hash of an id's bytes: the key by which traces cross chunk boundaries. */
export function idHash(buf: Buffer, span: IdSpan): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x3c6ef372;
  for (let i = span.start; i < span.end; i++) {
    h1 = Math.imul(h1 ^ buf[i]!, 0x01000193);
    h2 = Math.imul(h2 + buf[i]!, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return (h1 >>> 0) * 2097152 + (h2 >>> 11) + 1;
}

/**
 * The id key an input's lines use, from its head: the first of KEYS (traces before
 * requests before spans: spans differ from call to call within one trace) that at least
 * two head lines carry; undefined when none does.
 */
export function traceKeyOf(head: string): string | undefined {
  const bytes = Buffer.from(head, 'utf8');
  const lines: [number, number][] = [];
  for (let start = 0, n = 0; n < 400 && start < bytes.length; n++) {
    let nl = bytes.indexOf(10, start);
    if (nl < 0) nl = bytes.length;
    lines.push([start, nl]);
    start = nl + 1;
  }
  const span: IdSpan = { start: -1, end: -1 };
  for (const key of KEYS) {
    // Most keys are in no line of the head: one search of its text says so.
    if (!head.includes(key)) continue;
    const k = Buffer.from(key);
    let found = 0;
    for (const [s, e] of lines) if (findId(bytes, s, e, k, span).start >= 0 && ++found >= 2) return key;
  }
  return undefined;
}

/**
 * Trace and request ids in a line (`trace_id=4bf92f35`, `"requestId": "req-7"`,
 * `x-request-id: ...`), for precursors on the same trace.
 *
 * The head of an input decides which key its lines use (a log spells its id field one
 * way); each record is then searched for that key alone, with one native indexOf.
 */
const KEYS = ['trace', 'Trace', 'TRACE', 'request', 'Request', 'req', 'correlation', 'Correlation', 'span', 'Span'];

// Byte classes by table: 1 letter or digit, 2 also allowed inside an id (`_ - . : /`).
const ID = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) ID[c] = 1;
  else if (c === 95 || c === 45 || c === 46 || c === 58 || c === 47) ID[c] = 2;
}
const isAlnum = (c: number): boolean => ID[c] === 1;

/**
 * Finds each line's id in one chunk: the next occurrence of the key is remembered, so a
 * chunk is searched once however many lines lack the key (indexOf alone would search to
 * the chunk's end for each of them).
 */
export class TraceFinder {
  readonly #buf: Buffer;
  readonly #key: Buffer;
  #next: number;

  constructor(buf: Buffer, key: Buffer) {
    this.#buf = buf;
    this.#key = key;
    this.#next = buf.indexOf(key);
  }

  /** The id in bytes [s, e) as a 53-bit hash (0 when there is none): a cheap map key. */
  idIn(s: number, e: number): number {
    const buf = this.#buf;
    while (this.#next !== -1 && this.#next < e) {
      const at = this.#next;
      this.#next = buf.indexOf(this.#key, at + 1);
      // The key must start a word (`trace`, not `backtrace`) inside this line.
      if (at < s || (at > s && isAlnum(buf[at - 1]!))) continue;
      const id = valueAfterKey(buf, at + this.#key.length, e);
      if (id !== 0) {
        // The rest of this line is done with.
        while (this.#next !== -1 && this.#next < e) this.#next = buf.indexOf(this.#key, this.#next + 1);
        return id;
      }
    }
    return 0;
  }
}

/** After the key: an optional `_id`/`Id`/`-id`, a quote, `=` or `:`, a quote, then the id. */
function valueAfterKey(line: Buffer, i: number, end: number): number {
  let k = i;
  while (k < end && k - i < 12 && ID[line[k]!] !== 0 && line[k] !== 58 && line[k] !== 47) k++;
  if (k < end && line[k] === 34) k++;
  while (k < end && line[k] === 32) k++;
  if (k >= end || (line[k] !== 61 && line[k] !== 58)) return 0;
  k++;
  while (k < end && line[k] === 32) k++;
  if (k < end && line[k] === 34) k++;
  const start = k;
  const limit = Math.min(end, start + 128);
  while (k < limit && ID[line[k]!] !== 0) k++;
  const len = k - start;
  if (len < 4 || !isAlnum(line[start]!)) return 0;
  // Ids differ at their start or their end (counters, random hex, UUIDs): hashing the
  // first and last 12 bytes and the length is as good as hashing all of them, and cheaper.
  let h1 = 0x811c9dc5 ^ len;
  let h2 = 0x3c6ef372 + len;
  const head = Math.min(k, start + 12);
  for (let i = start; i < head; i++) {
    h1 = Math.imul(h1 ^ line[i]!, 0x01000193);
    h2 = Math.imul(h2 + line[i]!, 0x5bd1e995) ^ (h2 >>> 13);
  }
  for (let i = Math.max(head, k - 12); i < k; i++) {
    h1 = Math.imul(h1 ^ line[i]!, 0x01000193);
    h2 = Math.imul(h2 + line[i]!, 0x5bd1e995) ^ (h2 >>> 13);
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
  for (const key of KEYS) {
    const finder = new TraceFinder(bytes, Buffer.from(key));
    let found = 0;
    for (const [s, e] of lines) if (finder.idIn(s, e) !== 0 && ++found >= 2) return key;
  }
  return undefined;
}

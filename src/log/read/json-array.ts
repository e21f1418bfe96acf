/**
 * `log show --style json` writes one pretty-printed JSON array of events, not a line per
 * event. Its events are turned into JSON lines (one compact object a line) so that they
 * read as `log show --style ndjson` does: line numbers then count events.
 */

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
/** An event larger than this is not held: it is counted and left out. */
const MAX_EVENT_BYTES = 1024 * 1024;
const BATCH_BYTES = 1024 * 1024;

/** Does this head begin a JSON array of `log show` events? */
export function isLogShowJsonArray(head: string): boolean {
  const t = head.trimStart();
  return t.startsWith('[') && /"messageType"\s*:/.test(head) && /"eventMessage"\s*:/.test(head);
}

export interface JsonArrayStats {
  /** Events larger than MAX_EVENT_BYTES, or not JSON: left out. */
  dropped: number;
}

/** The array's objects, each as one line of compact JSON, in batches. */
export async function* jsonArrayAsLines(chunks: AsyncIterable<Buffer>, stats: JsonArrayStats): AsyncGenerator<Buffer> {
  let started = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let size = 0;
  let overflow = false;
  let out: string[] = [];
  let outBytes = 0;
  const finishEvent = (): void => {
    if (overflow) stats.dropped++;
    else {
      try {
        const line = `${JSON.stringify(JSON.parse(Buffer.concat(parts, size).toString('utf8')))}\n`;
        out.push(line);
        outBytes += line.length;
      } catch {
        stats.dropped++;
      }
    }
    parts = [];
    size = 0;
    overflow = false;
  };
  for await (const buf of chunks) {
    let from = -1;
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (!started) {
        if (c === OPEN_BRACKET) started = true;
        continue;
      }
      if (c === QUOTE && depth > 0) inString = true;
      else if (c === OPEN_BRACE) {
        if (depth === 0) from = i;
        depth++;
      } else if (c === CLOSE_BRACE && depth > 0) {
        depth--;
        if (depth === 0) {
          take(buf.subarray(Math.max(0, from), i + 1));
          from = -1;
          finishEvent();
        }
      }
    }
    if (depth > 0) take(buf.subarray(Math.max(0, from)));
    if (outBytes >= BATCH_BYTES) {
      yield Buffer.from(out.join(''), 'utf8');
      out = [];
      outBytes = 0;
    }
  }
  if (depth > 0) stats.dropped++;
  if (out.length > 0) yield Buffer.from(out.join(''), 'utf8');

  function take(b: Buffer): void {
    if (overflow) return;
    if (size + b.length > MAX_EVENT_BYTES) {
      overflow = true;
      return;
    }
    // A copy: the source may reuse its buffers.
    parts.push(Buffer.from(b));
    size += b.length;
  }
}

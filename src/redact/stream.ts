/**
 * Streams text through a LineRedactor with split2: one output line per input line, in
 * order, each written before the next is read. A line longer than `maxLineBytes` is not
 * held whole: its excess is dropped as it arrives and the line comes out as a marker that
 * says so (split2 alone would buffer it, and scan the buffer again on every chunk).
 */
import { Readable, Transform, type TransformCallback, pipeline } from 'node:stream';
import split2 from 'split2';
import { LineRedactor, marker } from './index.js';

export interface RedactStreamOptions {
  /** Lines longer than this many bytes become a marker. */
  maxLineBytes?: number;
}

/** Something to write to that may ask us to wait (`write()` returning false). */
export interface LineSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export const DEFAULT_MAX_LINE_BYTES = 4 << 20;

/**
 * Counts newlines and cuts each line at `max` bytes (what follows up to the newline is
 * dropped), noting which lines it cut. It runs ahead of the line splitter, so by the time
 * line k comes out of split2 this has seen line k's newline, or the end of the input.
 */
class LineGuard extends Transform {
  newlines = 0;
  readonly cut = new Set<number>();
  #lineBytes = 0;
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    while (from < bytes.length) {
      const newline = bytes.indexOf(0x0a, from);
      const stop = newline === -1 ? bytes.length : newline;
      const room = Math.max(0, this.#max - this.#lineBytes);
      const take = Math.min(room, stop - from);
      if (take > 0) this.push(bytes.subarray(from, from + take));
      if (take < stop - from) this.cut.add(this.newlines);
      this.#lineBytes += stop - from;
      if (newline === -1) break;
      this.push(bytes.subarray(newline, newline + 1));
      this.newlines++;
      this.#lineBytes = 0;
      from = newline + 1;
    }
    callback();
  }
}

export async function redactStream(
  input: AsyncIterable<Buffer | string>,
  output: LineSink,
  { maxLineBytes = DEFAULT_MAX_LINE_BYTES }: RedactStreamOptions = {},
): Promise<{ lines: number }> {
  const redactor = new LineRedactor();
  const guard = new LineGuard(maxLineBytes);
  // `\n` only: a `\r` stays with its line and comes out as it came in.
  const lines = pipeline(Readable.from(input, { objectMode: false }), guard, split2('\n'), () => undefined);
  let count = 0;
  for await (const line of lines as AsyncIterable<string>) {
    const shown = guard.cut.has(count) ? marker(`line-over-${maxLineBytes}-bytes`) : redactor.line(line);
    // The line ended with a newline unless it is the last and the input did not.
    const text = count < guard.newlines ? `${shown}\n` : shown;
    count++;
    if (!output.write(text)) await new Promise<void>((resolve) => output.once('drain', resolve));
  }
  return { lines: count };
}

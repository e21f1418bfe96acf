/**
 * Streams text through a LineRedactor: one output line per input line, in order, with
 * bounded memory. A line longer than `maxPending` characters is redacted in parts cut at
 * spaces where possible, so a multi-megabyte line without a newline never sits in memory
 * whole.
 */
import { StringDecoder } from 'node:string_decoder';
import { LineRedactor } from './index.js';
import { segmentEnd } from './segments.js';

export interface RedactStreamOptions {
  /** Characters of an unfinished line held before part of it is redacted and written. */
  maxPending?: number;
  /** Bytes of output gathered before one write. */
  batchBytes?: number;
}

/** Something to write to that may ask us to wait (`write()` returning false). */
export interface LineSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export async function redactStream(
  input: AsyncIterable<Buffer | string>,
  output: LineSink,
  { maxPending = 1 << 20, batchBytes = 64 * 1024 }: RedactStreamOptions = {},
): Promise<{ lines: number }> {
  const redactor = new LineRedactor();
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let batch: string[] = [];
  let batchLength = 0;
  let lines = 0;

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const chunk = batch.join('');
    batch = [];
    batchLength = 0;
    if (!output.write(chunk)) await new Promise<void>((resolve) => output.once('drain', resolve));
  };
  const emit = (text: string): void => {
    batch.push(text);
    batchLength += text.length;
  };

  const take = (text: string): void => {
    let data = pending.length > 0 ? pending + text : text;
    let start = 0;
    for (let newline = data.indexOf('\n'); newline !== -1; newline = data.indexOf('\n', start)) {
      emit(`${redactor.line(data.slice(start, newline))}\n`);
      lines++;
      start = newline + 1;
    }
    data = start > 0 ? data.slice(start) : data;
    // An unfinished line that grows past the limit is redacted part by part.
    while (data.length > maxPending) {
      const end = segmentEnd(data, 0, maxPending);
      emit(redactor.fragment(data.slice(0, end)));
      data = data.slice(end);
    }
    pending = data;
  };

  for await (const chunk of input) {
    take(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    if (batchLength >= batchBytes) await flush();
  }
  take(decoder.end());
  if (pending.length > 0) {
    // The last line had no newline; neither does its output.
    emit(redactor.line(pending));
    lines++;
  }
  await flush();
  return { lines };
}

/**
 * Crash reports among a log's inputs, chosen by a sniff of their head: a crash report is
 * not a stream of lines, and comes back as its parsed fields.
 */
import { cancelledError, WispError } from '../../core/errors.js';
import { looksLikeCrashReport, parseCrashReport } from '../../crash/index.js';
import { peek, type LogSource, type OpenedSource } from '../../input/sources.js';
import type { CrashResult } from '../model/result.js';
import { DETECT_BYTES } from './detect.js';

/** Crash reports are small (the largest seen: 6 MB); past this one is not a crash report. */
const MAX_CRASH_BYTES = 32 * 1024 * 1024;
const decoder = new TextDecoder('utf-8');

/** The head an input's kind is decided on, as text. */
export const headText = (head: Buffer): string => decoder.decode(head.subarray(0, DETECT_BYTES));

/** Opens a single input: a crash report is read as one; anything else comes back opened, its head put back. */
export async function openSniffed(source: LogSource, signal: AbortSignal | undefined, tap: ((b: Buffer) => void) | undefined): Promise<CrashResult | OpenedSource> {
  const opened = await source.open();
  const peeked = await peek(opened.chunks, DETECT_BYTES);
  opened.chunks = peeked.all;
  if (!looksLikeCrashReport(headText(peeked.head))) return opened;
  try {
    return await readCrashReport(source.name, opened.chunks, opened.gzip, signal, tap);
  } finally {
    await opened.file?.close();
  }
}

export async function readCrashReport(
  name: string,
  chunks: AsyncIterable<Buffer>,
  gzip: boolean,
  signal: AbortSignal | undefined,
  tap: ((b: Buffer) => void) | undefined,
): Promise<CrashResult> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const b of chunks) {
    if (signal?.aborted) throw cancelledError('condense_log');
    size += b.length;
    if (size > MAX_CRASH_BYTES) {
      throw new WispError('WISP_INPUT_TOO_LARGE', `${name} starts like a crash report but is over ${MAX_CRASH_BYTES / (1024 * 1024)} MB`);
    }
    // A copy: the source may use its buffer again for the next read.
    parts.push(Buffer.from(b));
  }
  const all = Buffer.concat(parts);
  tap?.(all);
  const text = decoder.decode(all);
  const report = parseCrashReport(text);
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const format = report.kind === 'ips' ? 'crash report (.ips)' : report.kind === 'crash' ? 'crash report (text)' : 'diagnostic report (.ips)';
  return {
    kind: 'crash',
    read: { inputs: [{ name, bytes: size, gzip, format, firstLine: 1, lines }], bytes: size, lines },
    format,
    report,
  };
}

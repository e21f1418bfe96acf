/**
 * The system log through the native library: the systemd journal on Linux (libsystemd
 * opened at run time), OSLogStore on macOS. Read in batches, each one async call, so a
 * day of log never blocks the event loop and can be abandoned between batches.
 */
import { WispError } from '../core/errors.js';
import { callNative, takeResult } from './call.js';
import { nativeLibrary, Status } from './library.js';
import { splitRecords } from './records.js';

export interface SystemLogQuery {
  /** Start and optional end, microseconds since the epoch. */
  sinceUsec: number;
  untilUsec?: number;
  /** '' for none. */
  process: string;
  subsystem: string;
  /** A journal file to read instead of the system's journal (Linux; for tests). */
  file?: string;
}

export interface SystemLogReader {
  /** Whether any log files could be opened (false: nothing readable here). */
  hasFiles: boolean;
  /** Next batch of whole lines; undefined at the end or after close. One batch at a time. */
  next(maxBytes: number, signal?: AbortSignal): Promise<Buffer | undefined>;
  close(): void;
}

export async function openSystemLog(query: SystemLogQuery, signal?: AbortSignal): Promise<SystemLogReader> {
  const lib = nativeLibrary();
  const handle = lib.logNew() as bigint | null;
  if (handle === null || handle === 0n) throw new WispError('WISP_INTERNAL', 'opening the system log: out of memory');
  let closed = false;
  // A read handed to koffi may not have reached the library yet: closing then would free
  // the log under it. close() marks the reader closed at once and frees it when no read
  // is in flight (or when the one in flight returns).
  let inFlight: Promise<unknown> | undefined;
  const close = (): void => {
    if (closed) return;
    closed = true;
    if (inFlight === undefined) lib.logClose(handle);
    else void inFlight.finally(() => lib.logClose(handle));
  };
  let hasFiles = false;
  try {
    const pointer = await new Promise<bigint | null>((resolve, reject) => {
      lib.logOpen.async(handle, query.file ?? '', query.sinceUsec, query.untilUsec ?? 0, query.process, query.subsystem,
        (err: unknown, res: bigint | null) => (err ? reject(err) : resolve(res)));
    });
    const opened = takeResult(lib, 'opening the system log', pointer);
    for (const f of splitRecords(opened.data)) if (f[0] === 'F') hasFiles = f[1] === '1';
    if (signal?.aborted) throw new WispError('WISP_CANCELLED', 'reading the system log: cancelled');
  } catch (err) {
    close();
    throw err;
  }
  let ended = false;
  return {
    hasFiles,
    async next(maxBytes, batchSignal) {
      if (ended || closed) return undefined;
      if (inFlight !== undefined) throw new WispError('WISP_INTERNAL', 'reading the system log: one batch at a time');
      const read = callNative('reading the system log', (l, token) => [l.logRead, [handle, token, maxBytes]], batchSignal ?? signal);
      inFlight = read.catch(() => undefined);
      try {
        const { status, data } = await read;
        if (status === Status.End) ended = true;
        return data.length > 0 ? data : ended ? undefined : Buffer.alloc(0);
      } finally {
        inFlight = undefined;
      }
    },
    close,
  };
}

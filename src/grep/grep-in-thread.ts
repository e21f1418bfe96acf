import { parentPort, Worker, workerData } from 'node:worker_threads';
import { WispError } from '../core/errors.js';
import { packageFile } from '../paths.js';
import { grepFile, type GrepQuery, type GrepResult } from './grep-file.js';

const WORKER = packageFile('dist/workers/grep-raw.js');

/** Greps in a fresh thread, terminated when the time runs out or the caller aborts. */
export function grepInThread(file: string, query: GrepQuery, timeoutMs: number, signal?: AbortSignal): Promise<GrepResult> {
  if (query.regex) {
    try {
      new RegExp(query.pattern);
    } catch (err) {
      throw new WispError('WISP_BAD_ARGUMENT', `pattern is not a valid regular expression: ${(err as Error).message}`, { cause: err });
    }
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { file, query } });
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new WispError('WISP_DEADLINE', `grep_raw stopped after ${timeoutMs} ms`, { hint: 'use a plainer pattern or regex: false' }))),
      timeoutMs,
    );
    const onAbort = (): void => finish(() => reject(new WispError('WISP_CANCELLED', 'grep_raw was cancelled')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (m: { ok: true; result: GrepResult } | { ok: false; message: string }) =>
      finish(() => (m.ok ? resolve(m.result) : reject(new WispError('WISP_INTERNAL', m.message)))),
    );
    worker.once('error', (err) => finish(() => reject(err)));
  });
}

/** The thread's side (workers/grep-raw.ts): greps what it was given and posts the answer. */
export function grepInThisThread(): void {
  const { file, query } = workerData as { file: string; query: GrepQuery };
  try {
    parentPort!.postMessage({ ok: true, result: grepFile(file, query) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, message: (err as Error).message });
  }
}

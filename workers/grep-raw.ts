/**
 * Runs one grep in a thread of its own, so that the server can stop it: a user's regex
 * may backtrack for a long time, and a JavaScript regex cannot be interrupted in place.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { grepFile, type GrepQuery } from '../src/grep/grep-file.js';

const { file, query } = workerData as { file: string; query: GrepQuery };
try {
  parentPort!.postMessage({ ok: true, result: grepFile(file, query) });
} catch (err) {
  parentPort!.postMessage({ ok: false, message: (err as Error).message });
}

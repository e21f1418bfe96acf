/**
 * Where condense_log's chunks are condensed: here while the run's threads load their code,
 * in the threads once one has (log/index.ts, StartingPool). Either way the same partial,
 * so the result is the one a run in the calling thread gives.
 */
import test from 'ava';
import { setTimeout as delay } from 'node:timers/promises';
import { jsonLinesLog, mixedLog } from '../fixtures/logs.js';
import { textSource } from '../src/input/sources.js';
import { chunkThreadsReady, warmChunkThreads } from '../src/log/chunk/threads.js';
import { condenseLog } from '../src/log/index.js';
import { WorkerPool } from '../src/pipeline/worker-pool.js';

const text = mixedLog(20_000);
const CHUNK = 64 * 1024;

test('once a thread has loaded the condenser, every chunk goes to the threads, with the result of a run here', async (t) => {
  const pool = await WorkerPool.start(2);
  try {
    warmChunkThreads(pool);
    // Waits for the event, not for a time: the test asserts where chunks go, never how fast.
    while (!chunkThreadsReady(pool)) await delay(5);
    const before = pool.completed;
    const pooled = await condenseLog([textSource('mixed.log', text)], { pool, chunkBytes: CHUNK });
    const chunks = Math.floor(Buffer.byteLength(text) / CHUNK);
    t.true(pool.completed - before >= chunks, `${pool.completed - before} tasks for about ${chunks} chunks`);
    t.deepEqual(pooled, await condenseLog([textSource('mixed.log', text)], { workers: 0, chunkBytes: CHUNK }));
  } finally {
    await pool.close();
  }
});

test('a fresh pool per run (chunks here first, then in the threads) gives the result of a run here', async (t) => {
  const here = JSON.stringify(await condenseLog([textSource('mixed.log', text)], { workers: 0, chunkBytes: CHUNK }));
  for (const workers of [1, 2]) {
    t.is(JSON.stringify(await condenseLog([textSource('mixed.log', text)], { workers, chunkBytes: CHUNK })), here, `workers ${workers}`);
  }
});

test('left to choose, a run of its own condenses chunks here and on a pool one thread smaller, with the result of a run here', async (t) => {
  // JSON lines: a format the native lanes do not read, so chunks go to the pool or stay here.
  let json = '';
  for (let seed = 1; Buffer.byteLength(json) < 5 * 1024 * 1024; seed++) json += jsonLinesLog(5_000, seed);
  const here = JSON.stringify(await condenseLog([textSource('app.jsonl', json)], { workers: 0, chunkBytes: CHUNK }));
  t.is(JSON.stringify(await condenseLog([textSource('app.jsonl', json)], { chunkBytes: CHUNK })), here);
});

/**
 * The same input gives byte-identical output whatever the worker count, the chunk size,
 * and whether it was held or streamed (apart from the header saying "streamed").
 */
import test from 'ava';

import { jsonShape, type ShapeInput, type ShapeOptions, type ShapeReport } from '../src/shape/index.js';
import { apiExport, jsonLines, rng } from '../fixtures/json.js';
import { tempDir, writeTemp } from './helpers.js';
import { WorkerPool } from '../src/pipeline/worker-pool.js';

function comparable(r: ShapeReport): { text: string; tree: string } {
  return {
    text: r.text.replace(', streamed)', ')'),
    tree: JSON.stringify({ ...r.tree, read: { ...r.tree.read, streamed: false } }),
  };
}

async function sameEverywhere(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, input: ShapeInput | (() => ShapeInput), runs: ShapeOptions[]): Promise<ShapeReport> {
  const make = typeof input === 'function' ? input : () => input;
  const first = await jsonShape(make(), runs[0]);
  for (const options of runs.slice(1)) {
    const other = await jsonShape(make(), options);
    t.deepEqual(comparable(other), comparable(first), JSON.stringify(options));
  }
  return first;
}

/** JSON Lines built to stress merging: per-line id keys that only make a map together, enums that overflow only in the union, examples that must be the first. */
function mergeStress(lines: number): string {
  const r = rng(11);
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const row: Record<string, unknown> = {
      n: i,
      // One id-like key per line: no chunk of a few lines has ten, the whole file does.
      byId: { [String(1000 + i)]: { v: i % 7, label: `l${i % 3}` } },
      // Twelve distinct values in all: an enum in a small chunk, not in the whole.
      code: `c${Math.floor(r() * 12)}`,
      // A string only on some lines: the example must be the first in input order.
      note: i % 5 === 3 ? `note at line ${i}` : null,
      mixed: i % 4 === 0 ? 'text' : i % 4 === 1 ? i : [i, { deep: i }],
    };
    if (i % 9 === 0) row.rare = true;
    out.push(JSON.stringify(row));
  }
  return `${out.join('\n')}\n`;
}

test('JSON Lines: identical for 0-3 workers, any chunk size, held or streamed', async (t) => {
  const text = mergeStress(300);
  const first = await sameEverywhere(t, text, [
    { workers: 0 },
    { workers: 1, chunkBytes: 512 },
    { workers: 2, chunkBytes: 1000 },
    { workers: 3, chunkBytes: 4096 },
    { workers: 2, chunkBytes: 777, holdBytes: 2048, maxBytes: 1 << 24 },
    { workers: 0, chunkBytes: 333, holdBytes: 2048, maxBytes: 1 << 24 },
  ]);
  // The merge cases really happened.
  t.regex(first.text, /byId: object as map: 1 keys like "1000", "1001", "1002" -> object/);
  t.regex(first.text, /code: string len 2\.\.3 e\.g\. "c/);
  t.regex(first.text, /note: null 240 \| string 60 len 14\.\.16 e\.g\. "note at line 3"/);
});

test('JSON Lines from a file and from a stream: identical across workers', async (t) => {
  const dir = tempDir('shape-det');
  const text = jsonLines(300_000, 5);
  const path = writeTemp(dir, 'events.jsonl', text);
  const chunks = (): ShapeInput => {
    const bytes = Buffer.from(text);
    const parts: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 10_007) parts.push(bytes.subarray(at, at + 10_007));
    return { stream: parts };
  };
  const first = await sameEverywhere(t, { path }, [{ workers: 0 }, { workers: 2, chunkBytes: 20_000 }, { workers: 3, chunkBytes: 65_536 }]);
  for (const options of [{ workers: 0 }, { workers: 2, chunkBytes: 30_000, holdBytes: 50_000, maxBytes: 1 << 24 }]) {
    t.deepEqual(comparable(await jsonShape(chunks(), options)), comparable(first), JSON.stringify(options));
  }
  t.true(first.text.startsWith('1,'), first.text);
});

test('a top-level array of records: identical held or streamed, whatever the worker count', async (t) => {
  const dir = tempDir('shape-doc');
  const path = writeTemp(dir, 'export.json', apiExport(1024 * 1024, 7));
  const first = await sameEverywhere(t, { path }, [{ workers: 0 }, { workers: 3 }, { workers: 2, holdBytes: 64 * 1024, maxBytes: 1 << 30 }]);
  t.true(first.text.startsWith('array of '), first.text);
  t.regex(first.text, /state: string len 4\.\.6 enum "/);
});

test('a pretty-printed document streamed in small pieces matches the held outline', async (t) => {
  const text = JSON.stringify(JSON.parse(apiExport(200_000, 3)), null, 2);
  await sameEverywhere(t, text, [{}, { holdBytes: 4096, maxBytes: 1 << 24 }]);
});

test('a lent worker pool gives the same outline, does the work, and is left open for the next call', async (t) => {
  const text = mergeStress(300);
  const alone = await jsonShape(text, { workers: 0 });
  const pool = await WorkerPool.start(2);
  try {
    // workers as for logs: by default an input under 4 MiB stays in the calling thread...
    const small = pool.completed;
    t.deepEqual(comparable(await jsonShape(text, { pool, chunkBytes: 2048 })), comparable(alone), 'by default');
    t.is(pool.completed, small, 'a small input leaves the pool alone by default');
    // ...and asked for threads, the lent pool does the work.
    for (let call = 0; call < 2; call++) {
      const before = pool.completed;
      const lent = await jsonShape(text, { pool, workers: 2, chunkBytes: 2048 });
      t.deepEqual(comparable(lent), comparable(alone), `call ${call + 1}`);
      t.true(pool.completed - before >= 10, `call ${call + 1}: ${pool.completed - before} chunks went to the pool`);
    }
    const before = pool.completed;
    t.deepEqual(comparable(await jsonShape(text, { pool, workers: 0 })), comparable(alone), 'workers: 0');
    t.is(pool.completed, before, 'workers: 0 leaves the pool alone');
  } finally {
    await pool.close();
  }
});

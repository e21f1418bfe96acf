import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';

import { readTables, TABLES_FILE, tableKey, tablesSource } from '../src/redact/built-tables.js';
import { RULE_SET } from '../src/redact/rule-set.js';
import { tempDir } from './helpers.js';

const builtTables = new URL('../src/redact/built-tables.js', import.meta.url).href;
const ruleSet = new URL('../src/redact/rule-set.js', import.meta.url).href;

/** The file's bytes as a thread that builds every table itself would write them. */
function freshlyBuilt(): Buffer {
  const script = `process.env.WISP_BUILD_TABLES = '1';
    const t = await import(${JSON.stringify(builtTables)});
    await import(${JSON.stringify(ruleSet)});
    process.stdout.write(t.serializeTables().toString('base64'));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(r.stderr);
  return Buffer.from(r.stdout, 'base64');
}

test('the build writes the screen tables a fresh build makes, byte for byte, and threads read them from there', (t) => {
  void RULE_SET;
  t.is(tablesSource('runs'), 'file');
  t.is(tablesSource('keywords'), 'file');
  const fresh = freshlyBuilt();
  t.true(fresh.length > 100_000);
  t.true(readFileSync(TABLES_FILE).equals(fresh));
});

test('tables stored under another key, in a damaged file or in no file are not read', (t) => {
  const dir = tempDir('tables');
  const good = readFileSync(TABLES_FILE);
  const index = JSON.parse(good.toString('utf8', 4, 4 + good.readUInt32LE(0))) as Record<string, { key: string }>;
  const key = index.runs!.key;
  t.not(readTables(TABLES_FILE, 'runs', key), undefined);
  // The key covers the inputs and the name: other inputs, another name, another key.
  t.not(tableKey('runs', 'other inputs'), key);
  t.is(readTables(TABLES_FILE, 'runs', tableKey('runs', 'other inputs')), undefined);
  t.is(readTables(TABLES_FILE, 'no-such-set', key), undefined);
  const truncated = join(dir, 'truncated.bin');
  writeFileSync(truncated, good.subarray(0, good.length >> 1));
  t.is(readTables(truncated, 'keywords', index.keywords!.key), undefined);
  const garbage = join(dir, 'garbage.bin');
  writeFileSync(garbage, Buffer.from('not a tables file at all'));
  t.is(readTables(garbage, 'runs', key), undefined);
  t.is(readTables(join(dir, 'missing.bin'), 'runs', key), undefined);
  // An index of another shape under the right key: no crash, no tables.
  const odd = join(dir, 'odd.bin');
  const json = Buffer.from(JSON.stringify({ runs: { key, numbers: { shift: 'x' }, arrays: null } }));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(json.length, 0);
  writeFileSync(odd, Buffer.concat([head, json]));
  t.is(readTables(odd, 'runs', key), undefined);
  const noArrays = join(dir, 'no-arrays.bin');
  const json2 = Buffer.from(JSON.stringify({ runs: { key, numbers: {}, arrays: { next: ['Uint16Array', 8, 1e9] } } }));
  head.writeUInt32LE(json2.length, 0);
  writeFileSync(noArrays, Buffer.concat([head, json2]));
  t.is(readTables(noArrays, 'runs', key), undefined);
});

import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiExport, jsonLines, secretsAndEscapes } from '../fixtures/json.js';
import { call, connect, textOf } from './mcp-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

const base = tempDir('mcp-shape');
const root = join(base, 'root');
mkdirSync(root);
const exportPath = writeTemp(root, 'export.json', apiExport(2 * 1024 * 1024));
const linesPath = writeTemp(root, 'events.jsonl', jsonLines(512 * 1024));
const bigPath = join(root, 'big.json');
writeFileSync(bigPath, `[${'1,'.repeat(9 * 1024 * 1024)}1]`);
const notJson = writeTemp(root, 'broken.mjs', "console.log('npm ERR! missing script: export'); process.exit(1);\n");
let n = 0;
const server = () => ({ roots: [root], allowCommands: [['node']], stateDir: join(base, `state-${++n}`) });

test('json_shape over MCP: the outline in structuredContent and text alike, a handle for grep_raw', async (t) => {
  const { client, close } = await connect(server());
  const r = await call(client, 'json_shape', { path: exportPath });
  t.falsy(r.isError, textOf(r));
  const s = r.structuredContent!;
  t.is(s.kind, 'json');
  t.regex(String(s.summary), /^array of [\d,]+ objects/);
  t.is(s.text, textOf(r));
  t.true(String(s.text).includes(String(s.summary)));
  t.true(Buffer.byteLength(JSON.stringify(s)) <= 12 * 1024);
  const g = await call(client, 'grep_raw', { handle: s.handle, pattern: '"id"', maxMatches: 1 });
  t.falsy(g.isError, textOf(g));
  t.true((g.structuredContent!.totalMatches as number) >= 1);
  const jl = await call(client, 'json_shape', { path: linesPath });
  t.is(jl.structuredContent!.kind, 'jsonl');
  await close();
});

test('json_shape over MCP: examples redacted, oversized and broken input refused; run_and_condense flags a failed command', async (t) => {
  const { client, close } = await connect(server());
  const secret = await call(client, 'json_shape', { text: secretsAndEscapes() });
  t.falsy(secret.isError, textOf(secret));
  t.true(textOf(secret).includes('[REDACTED'));
  t.regex(textOf(await call(client, 'json_shape', { path: bigPath })), /WISP_INPUT_TOO_LARGE: .* 16,777,216/);
  t.regex(textOf(await call(client, 'json_shape', { text: '{"a": [1, 2' })), /WISP_(TRUNCATED|NOT)_JSON/);
  const failed = await call(client, 'run_and_condense', { command: ['node', notJson], as: 'json' });
  t.true(failed.isError);
  t.regex(textOf(failed), /WARNING: the command exited with status 1; first line of output: npm ERR! missing script/);
  await close();
});

import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { javaServiceLog } from '../fixtures/logs.js';
import { ROOT, WISP_BIN, tempDir, writeTemp } from './helpers.js';

const run = promisify(execFile);
const dir = tempDir('mcp-stdio');
const log = writeTemp(dir, 'service.log', javaServiceLog(3_000));
const serverArgs = (state: string): string[] => [WISP_BIN, 'mcp', '--root', dir, '--state-dir', join(dir, state)];

test('the built server over stdio with the SDK client: condense_log, then grep_raw on its handle', async (t) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: serverArgs('sdk'), stderr: 'pipe' });
  const client = new Client({ name: 'wisp-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: 'condense_log', arguments: { path: log } })) as unknown as { structuredContent: { handle: string; totals: { lines: number } } };
    t.is(r.structuredContent.totals.lines, javaServiceLog(3_000).split('\n').length - 1);
    const g = (await client.callTool({ name: 'grep_raw', arguments: { handle: r.structuredContent.handle, pattern: 'Caused by', maxMatches: 2 } })) as unknown as {
      structuredContent: { totalMatches: number; shown: number; text: string };
    };
    t.true(g.structuredContent.totalMatches > 2);
    t.is(g.structuredContent.shown, 2);
    t.regex(g.structuredContent.text, /^\d+: Caused by: java\.net\.SocketTimeoutException/m);
  } finally {
    await client.close();
  }
});

// A third-party client: the MCP Inspector's CLI, as an agent's host would drive the server.
const inspector = join(ROOT, 'node_modules', '.bin', 'mcp-inspector');

test('MCP Inspector CLI: tools/list and tools/call', async (t) => {
  const list = await run(inspector, ['--cli', process.execPath, ...serverArgs('insp'), '--method', 'tools/list', '--format', 'json'], { timeout: 60_000 });
  const listed = JSON.parse(list.stdout) as { result?: { tools: { name: string }[] }; tools?: { name: string }[] };
  const names = (listed.result ?? listed).tools!.map((x) => x.name).sort();
  t.deepEqual(names, ['condense_log', 'grep_raw', 'json_shape', 'run_and_condense', 'system_info']);

  const callArgs = (args: object): string[] => [
    '--cli', process.execPath, ...serverArgs('insp'),
    '--method', 'tools/call', '--tool-name', 'condense_log', '--tool-args-json', JSON.stringify(args), '--format', 'json',
  ];
  const called = await run(inspector, callArgs({ path: log, top: 3 }), { timeout: 60_000 });
  const result = JSON.parse(called.stdout).result as { structuredContent: { text: string; handle: string } };
  t.is((result.structuredContent.text.match(/^#\d+ /gm) ?? []).length, 3);
  t.regex(result.structuredContent.handle, /^raw_/);

  // Exit status 5 is the Inspector's way of saying the tool returned isError.
  const refused = await run(inspector, callArgs({ path: '/etc/passwd' }), { timeout: 60_000 }).catch((e: { code: number; stdout: string }) => e);
  t.is((refused as { code: number }).code, 5);
});

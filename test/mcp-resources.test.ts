import test from 'ava';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { call, connectStdio, type StdioConnected } from './mcp-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

const base = tempDir('mcp-resources');
const root = join(base, 'root');
mkdirSync(root);
const lines = Array.from({ length: 7000 }, (_, i) => `2025-01-01T00:00:00Z INFO line ${i + 1}`);
const file = writeTemp(root, 'app.log', `${lines.join('\n')}\n`);

let server: StdioConnected;
let handle: string;
test.before(async () => {
  server = await connectStdio(['--root', root, '--state-dir', join(base, 'state')]);
  handle = (await call(server.client, 'condense_log', { path: file })).structuredContent!.handle as string;
});
test.after.always(async () => server?.close());

const read = async (uri: string): Promise<string> => ((await server.client.readResource({ uri })).contents[0] as { text: string }).text;

test('?from=N alone, ?to=M alone, both, and neither', async (t) => {
  const from = await read(`wisp://raw/${handle}?from=6990`);
  t.is(from, lines.slice(6989).join('\n'), 'from the line to the end, no note when all is shown');
  const to = await read(`wisp://raw/${handle}?to=3`);
  t.is(to, lines.slice(0, 3).join('\n'));
  t.is(await read(`wisp://raw/${handle}?from=10&to=12`), lines.slice(9, 12).join('\n'));
  const whole = await read(`wisp://raw/${handle}`);
  t.true(whole.startsWith(lines.slice(0, 5000).join('\n')));
  const note = /ask for \?from=(\d+) for more\]$/.exec(whole);
  t.truthy(note, whole.slice(-200));
  // The page the note points at is served as the note says.
  t.true((await read(`wisp://raw/${handle}?from=${note![1]}`)).startsWith(lines[Number(note![1]) - 1]!));
});

test('a missing handle is -32002 (resource not found); a bad line number is -32602', async (t) => {
  const missing = await t.throwsAsync(read('wisp://raw/raw_00000000000000000000?from=2'));
  t.true(missing instanceof McpError);
  t.is((missing as McpError).code, -32002);
  t.regex(missing!.message, /^MCP error -32002: WISP_UNKNOWN_HANDLE: no raw payload has the handle/);
  const bad = await t.throwsAsync(read(`wisp://raw/${handle}?from=0`));
  t.is((bad as McpError).code, -32602);
  const unknownKey = await t.throwsAsync(read(`wisp://raw/${handle}?line=3`));
  t.is((unknownKey as McpError).code, -32602);
});

test('resources/templates/list names both forms; completion offers the handles', async (t) => {
  const { resourceTemplates } = await server.client.listResourceTemplates();
  t.deepEqual(resourceTemplates.map((x) => x.uriTemplate).sort(), ['wisp://raw/{handle}', 'wisp://raw/{handle}{?from,to}']);
  const done = await server.client.complete({ ref: { type: 'ref/resource', uri: 'wisp://raw/{handle}' }, argument: { name: 'handle', value: handle.slice(0, 8) } });
  t.true(done.completion.values.includes(handle));
  const none = await server.client.complete({ ref: { type: 'ref/resource', uri: 'wisp://raw/{handle}' }, argument: { name: 'handle', value: 'raw_zz' } });
  t.deepEqual(none.completion.values, []);
});

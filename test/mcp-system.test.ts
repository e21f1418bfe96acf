import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { call, connect, textOf } from './mcp-helpers.js';
import { tempDir } from './helpers.js';

const base = tempDir('mcp-system');
const root = join(base, 'root');
mkdirSync(join(root, 'big'), { recursive: true });
writeFileSync(join(root, 'big', 'blob.bin'), Buffer.alloc(2 * 1024 * 1024, 1));
let n = 0;
const server = () => ({ roots: [root], stateDir: join(base, `state-${++n}`) });

test('system_info over MCP: a socket this test opens is found with its pid', async (t) => {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as { port: number }).port;
  const { client, close } = await connect(server());
  try {
    const r = await call(client, 'system_info', { topic: 'ports', port });
    t.falsy(r.isError, textOf(r));
    const rows = String(r.structuredContent!.text).split('\n');
    t.true(rows.some((row) => row.includes(String(port)) && new RegExp(`\\b${process.pid}\\b`).test(row)), textOf(r));
  } finally {
    await close();
    listener.close();
  }
});

test('system_info over MCP: folderSizes inside the roots; bad arguments and paths refused', async (t) => {
  const { client, close } = await connect(server());
  const sizes = await call(client, 'system_info', { topic: 'folderSizes', path: root });
  t.falsy(sizes.isError, textOf(sizes));
  t.true(textOf(sizes).includes('big'));
  t.regex(textOf(await call(client, 'system_info', { topic: 'folderSizes', path: '/etc', process: '' })), /WISP_PATH_NOT_ALLOWED/);
  t.regex(textOf(await call(client, 'system_info', { topic: 'process', process: '-x' })), /WISP_BAD_ARGUMENT/);
  t.true((await call(client, 'system_info', { topic: 'ports', port: 70000 })).isError);
  t.true((await call(client, 'system_info', { topic: 'uptime', process: '' })).isError);
  // process is for its own topic only: a client need not send it for the others, and the
  // one topic that needs it says so when it is missing.
  const memory = await call(client, 'system_info', { topic: 'memory' });
  t.falsy(memory.isError, textOf(memory));
  t.regex(textOf(await call(client, 'system_info', { topic: 'process' })), /WISP_BAD_ARGUMENT.*process/);
  await close();
});

test('condense_log reads the system log by `last`, or says plainly why it cannot', async (t) => {
  const { client, close } = await connect(server());
  const r = await call(client, 'condense_log', { last: '10m' });
  // This machine may have no journal; either way the answer is a result or a clear refusal.
  if (r.isError) t.regex(textOf(r), /WISP_UNAVAILABLE: no systemd journal files can be read here/);
  else t.regex(String(r.structuredContent!.source), /journal \(last 10m\)/);
  t.regex(textOf(await call(client, 'condense_log', { last: '2y' })), /last|Invalid/);
  t.regex(textOf(await call(client, 'condense_log', { last: '2d' })), /last is a span of at most a day/, 'the schema bounds last to a day');
  t.regex(textOf(await call(client, 'condense_log', { process: 'sshd' })), /WISP_BAD_ARGUMENT: process and subsystem filter the system log/);
  t.regex(textOf(await call(client, 'condense_log', { last: '10m', path: join(root, 'x.log') })), /exactly one source/);
  await close();
});

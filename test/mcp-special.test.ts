import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { call, connectStdio, textOf } from './mcp-helpers.js';
import { WISP_BIN, tempDir, writeTemp } from './helpers.js';

const base = tempDir('mcp-special');
const root = join(base, 'root');
mkdirSync(root);
const fifo = join(root, 'pipe.log');
execFileSync('mkfifo', [fifo]);
const socketPath = join(root, 'app.sock');
const sleeper = writeTemp(root, 'sleeper.mjs', "console.log('started'); setTimeout(() => {}, 120_000);\n");
// A script of its own for the test that looks for its process: the tests of a file run at once.
const lonelySleeper = writeTemp(root, 'lonely-sleeper.mjs', "console.log('started'); setTimeout(() => {}, 120_000);\n");
let n = 0;
const state = (): string => join(base, `state-${++n}`);

test('a FIFO, a socket and a device under a root are refused at once, and the next call is answered', async (t) => {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(socketPath, resolve));
  const s = await connectStdio(['--root', root, '--root', '/dev', '--state-dir', state(), '--deadline', '5']);
  try {
    const started = Date.now();
    for (const [tool, path, what] of [
      ['condense_log', fifo, 'a FIFO'],
      ['json_shape', fifo, 'a FIFO'],
      ['condense_log', socketPath, 'a socket'],
      ['json_shape', '/dev/zero', 'a character device'],
    ] as const) {
      const r = await call(s.client, tool, { path });
      t.true(r.isError, `${tool} ${path}`);
      t.true(textOf(r).startsWith(`WISP_NOT_A_FILE: ${path} is ${what}`), textOf(r));
      t.regex(textOf(r), /not a regular file; wisp reads regular files only/);
    }
    t.true(Date.now() - started < 4000, 'refused before anything waits on them');
    const next = await call(s.client, 'condense_log', { text: '2025-01-01T00:00:00Z ERROR next call\n' });
    t.falsy(next.isError, textOf(next));
  } finally {
    await s.close();
    listener.close();
  }
});

// Node 20 held an AbortSignal.timeout inside AbortSignal.any weakly: a full collection during
// the call lost the deadline, and a stuck command ran on to its own 30 s limit (seen in CI).
// --stress-compaction makes every collection a full one.
for (const [how, nodeArgs] of [['', []], [', even when the server collects garbage throughout', ['--stress-compaction']]] as const) {
  test(`the deadline ends a runaway call, and a stuck call does not hold up the others${how}`, async (t) => {
    const dir = state();
    const s = await connectStdio(['--root', root, '--state-dir', dir, '--deadline', '2', '--allow-command', 'node'], {}, undefined, [...nodeArgs]);
    try {
      const handle = (await call(s.client, 'condense_log', { text: `${'a'.repeat(40)}b\n` })).structuredContent!.handle as string;
      const stuck = call(s.client, 'run_and_condense', { command: ['node', sleeper] });
      const started = Date.now();
      const runaway = call(s.client, 'grep_raw', { handle, pattern: '^(a+)+$', regex: true });
      const other = await call(s.client, 'condense_log', { text: '2025-01-01T00:00:00Z ERROR meanwhile\n' });
      t.falsy(other.isError, textOf(other));
      t.true(Date.now() - started < 1500, 'answered while the others run');
      const [r1, r2] = await Promise.all([runaway, stuck]);
      t.regex(textOf(r1), /WISP_(DEADLINE|CANCELLED)/);
      t.regex(textOf(r2), /^WISP_DEADLINE: the call was stopped at the server's deadline of 2 s/);
      t.true(Date.now() - started < 6000);
      t.falsy((await call(s.client, 'condense_log', { text: 'x\n' })).isError, 'and the server answers after');
    } finally {
      await s.close();
    }
    const audit = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    t.like(audit.find((e) => e.tool === 'run_and_condense'), { outcome: 'error', command: { outcome: 'ran', allowedBy: 'allowlist' } }, 'it ran, and was stopped');
  });
}

/** Pids of processes whose command line mentions `needle` (Linux /proc; a zombie's is empty). */
function processesWith(needle: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether the script itself runs: node with the script as its first argument (not bwrap, whose arguments name it too). */
function scriptRuns(script: string): boolean {
  return processesWith(script).some((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv[1] === script && argv[0] !== undefined && !argv[0].endsWith('bwrap');
    } catch {
      return false;
    }
  });
}

/** Resolves when `check` holds: it waits on a condition, for no fixed time (the test's timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 25));
}

test('the server exits when its client goes, and its command is gone by then', async (t) => {
  if (!existsSync('/proc/self/cmdline')) return t.pass('needs /proc');
  const child = spawn(process.execPath, [WISP_BIN, 'mcp', '--root', root, '--state-dir', state(), '--allow-command', 'node'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = (msg: object): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
  const initialized = new Promise<void>((resolve) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      if (out.includes('"id":1')) resolve();
    });
  });
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await initialized;
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_and_condense', arguments: { command: ['node', lonelySleeper] } } });
  await until(() => scriptRuns(lonelySleeper));
  child.stdin.end();
  await exited;
  // Not polled: the server waits for its commands to be gone before it exits.
  t.deepEqual(processesWith(lonelySleeper), [], 'its command is gone');
});

test('a call whose signal fired before its work was awaited answers cancelled, and the work failing after it is heard', async (t) => {
  const { ServerContext } = await import('../src/mcp/context.js');
  const unheard: unknown[] = [];
  const listen = (err: unknown): void => void unheard.push(err);
  process.on('unhandledRejection', listen);
  try {
    const cancelled = new AbortController();
    cancelled.abort();
    let fail!: (err: Error) => void;
    const work = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const bounded = ServerContext.prototype.bounded.call({ limits: { deadlineMs: 60_000 } } as never, work, cancelled.signal);
    const err = await t.throwsAsync(bounded);
    t.regex(err!.message, /cancelled by the client/);
    // The work sees the same signal and fails after the answer, as condense_log does.
    fail(new Error('condense_log was cancelled'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.deepEqual(unheard, []);
  } finally {
    process.off('unhandledRejection', listen);
  }
});

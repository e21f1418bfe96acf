import test from 'ava';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { javaServiceLog, mixedLog } from '../fixtures/logs.js';
import { call, connect, textOf } from './mcp-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

const base = tempDir('mcp');
const root = join(base, 'allowed');
const outside = join(base, 'allowed-evil');
mkdirSync(root);
mkdirSync(outside);
const logText = javaServiceLog(600);
const logPath = writeTemp(root, 'service.log', logText);
const secretOutside = writeTemp(outside, 'secret.log', '2025-01-01T00:00:00Z ERROR outside\n');
symlinkSync(secretOutside, join(root, 'link-to-outside.log'));
const failing = writeTemp(root, 'fail.mjs', "console.log('2025-01-01T00:00:00Z ERROR build broke: missing module x');\nconsole.error('npm ERR! code 2');\nprocess.exit(2);\n");
const sleeper = writeTemp(root, 'sleep.mjs', "console.log('starting'); setTimeout(() => {}, 60_000);\n");

let n = 0;
const stateDir = (): string => join(base, `state-${++n}`);
const server = (extra: Record<string, unknown> = {}) => ({ roots: [root], allowCommands: [['node']], stateDir: stateDir(), ...extra });
const READERS = ['condense_log', 'grep_raw', 'json_shape', 'system_info'];

test('tools/list: titles, descriptions, bounded and closed schemas; only run_and_condense may run commands and is not read-only', async (t) => {
  const { client, close } = await connect(server());
  const { tools } = await client.listTools();
  await close();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  t.deepEqual(tools.map((x) => x.name).sort(), [...READERS, 'run_and_condense'].sort());
  for (const tool of tools) {
    t.truthy(tool.title, tool.name);
    t.true((tool.description ?? '').length > 80);
    t.truthy(tool.outputSchema);
    t.is((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties, false, `${tool.name} refuses unknown arguments`);
  }
  for (const name of READERS) {
    const props = Object.keys(byName.get(name)!.inputSchema.properties ?? {});
    t.false(props.includes('command'), `${name} takes no command`);
    t.is(byName.get(name)!.annotations?.readOnlyHint, true, name);
  }
  const run = byName.get('run_and_condense')!;
  t.is(run.annotations?.readOnlyHint, false);
  t.not(run.annotations?.idempotentHint, true);
  t.true(run.description!.includes('"node"'), 'the description names the allowed commands');
  t.true(run.description!.includes(root), 'and the roots');
  const props = byName.get('condense_log')!.inputSchema.properties as Record<string, { maximum?: number; minimum?: number; pattern?: string }>;
  t.is(props.top!.minimum, 1);
  t.is(props.top!.maximum, 100);
  const last = new RegExp(props.last!.pattern!);
  for (const ok of ['1s', '86400s', '90s', '1440m', '10m', '24h', '2h', '1d']) t.true(last.test(ok), ok);
  for (const bad of ['99999d', '2d', '25h', '1441m', '86401s', '0m', '10', 'h']) t.false(last.test(bad), bad);
});

test('unknown arguments are refused with a message naming them', async (t) => {
  const { client, close } = await connect(server());
  const r = await call(client, 'condense_log', { path: logPath, maxMatches: 3 });
  t.true(r.isError);
  t.regex(textOf(r), /maxMatches/);
  t.regex(textOf(r), /path, text, last/);
  const g = await call(client, 'grep_raw', { handle: 'raw_00000000000000000000', pattern: 'x', regexp: true });
  t.regex(textOf(g), /regexp/);
  await close();
});

test('condense_log on a path: the text inside structuredContent, a handle in both, grep_raw on it', async (t) => {
  const { client, close } = await connect(server());
  const r = await call(client, 'condense_log', { path: logPath });
  t.falsy(r.isError, textOf(r));
  const s = r.structuredContent!;
  const handle = s.handle as string;
  t.regex(handle, /^raw_[0-9a-f]{20}$/);
  t.is(s.text, textOf(r), 'the model sees the same text whichever part its client reads');
  t.true(textOf(r).includes(handle));
  t.true(textOf(r).includes('OrderService - Order <NUM> failed'));

  const g = await call(client, 'grep_raw', { handle, pattern: 'IllegalStateException', maxMatches: 3, context: 1 });
  t.falsy(g.isError, textOf(g));
  const gs = g.structuredContent!;
  const lines = logText.split('\n');
  const expected = lines.filter((l) => l.includes('IllegalStateException'));
  t.is(gs.totalMatches, expected.length);
  t.is(gs.shown, 3);
  const firstLine = lines.findIndex((l) => l.includes('IllegalStateException')) + 1;
  t.true(String(gs.text).includes(`${firstLine}: ${lines[firstLine - 1]}`), "line numbers are the file's");
  t.true(String(gs.text).includes(`${firstLine - 1}- ${lines[firstLine - 2]}`), 'with context before');
  t.regex(String(gs.text), /cursor "\d+:1"/);
  await close();
});

test('the same input gives the same handle; the raw resource serves line ranges', async (t) => {
  const { client, close } = await connect(server());
  const a = await call(client, 'condense_log', { path: logPath });
  const b = await call(client, 'condense_log', { text: logText });
  t.is(a.structuredContent!.handle, b.structuredContent!.handle);
  const handle = a.structuredContent!.handle as string;
  const res = await client.readResource({ uri: `wisp://raw/${handle}?from=2&to=4` });
  t.is((res.contents[0] as { text: string }).text, logText.split('\n').slice(1, 4).join('\n'));
  const listed = await client.listResources();
  t.true(listed.resources.some((x) => x.uri === `wisp://raw/${handle}`));
  await close();
});

test('paths outside the roots are refused, also through a symlink and a sibling with the root as prefix', async (t) => {
  const { client, close } = await connect(server());
  for (const path of [secretOutside, join(root, 'link-to-outside.log'), join(root, '..', 'allowed-evil', 'secret.log'), 'relative.log']) {
    const r = await call(client, 'condense_log', { path });
    t.true(r.isError, path);
    t.regex(textOf(r), /WISP_PATH_NOT_ALLOWED/);
    if (path.startsWith('/')) t.true(textOf(r).includes(root), 'the error names the allowed roots');
  }
  const missing = await call(client, 'condense_log', { path: join(root, 'nope.log') });
  t.regex(textOf(missing), /WISP_FILE_NOT_FOUND/);
  await close();
});

test("the client's roots are waited for: a call made right after initialize is judged with them", async (t) => {
  const clientRoot = tempDir('mcp-client-root');
  const file = writeTemp(clientRoot, 'app.log', mixedLog(200));
  const { client, close } = await connect(server({ roots: [] }), { roots: [pathToFileURL(clientRoot).href], rootsDelayMs: 300 });
  const r = await call(client, 'condense_log', { path: file });
  t.falsy(r.isError, textOf(r));
  const denied = await call(client, 'condense_log', { path: logPath });
  t.regex(textOf(denied), /WISP_PATH_NOT_ALLOWED/);
  const { tools } = await client.listTools();
  t.true(tools.find((x) => x.name === 'run_and_condense')!.description!.includes(clientRoot), "the client's roots are named once known");
  await close();
});

test('an allowed command that fails: exit status in structuredContent, the text starts with a warning and its first line', async (t) => {
  const { client, close } = await connect(server());
  const r = await call(client, 'run_and_condense', { command: ['node', failing] });
  t.falsy(r.isError, textOf(r));
  const command = r.structuredContent!.command as Record<string, unknown>;
  t.like(command, { exitStatus: 2, timedOut: false, allowedBy: 'allowlist', argv: ['node', failing] });
  t.regex(String(r.structuredContent!.text), /^WARNING: the command exited with status 2; first line of output: 2025-01-01T00:00:00Z ERROR build broke/);
  await close();
});

test('a command that runs too long is stopped and flagged', async (t) => {
  const { client, close } = await connect(server({ limits: { commandTimeoutMs: 400 } }));
  const r = await call(client, 'run_and_condense', { command: ['node', sleeper] });
  t.falsy(r.isError, textOf(r));
  t.is((r.structuredContent!.command as { timedOut: boolean }).timedOut, true);
  t.regex(textOf(r), /^WARNING: the command timed out/);
  await close();
});

test('commands off the allowlist are refused, flags too; elicitation lets the user decide', async (t) => {
  const plain = await connect(server());
  for (const command of [['ls', root], ['node', '--eval', '1'], ['node', failing, '--inspect']]) {
    const r = await call(plain.client, 'run_and_condense', { command });
    t.true(r.isError, command.join(' '));
    t.regex(textOf(r), /WISP_COMMAND_NOT_ALLOWED/);
  }
  await plain.close();

  let asked = '';
  const yes = await connect(server({ allowCommands: [] }), {
    elicit: (message) => {
      asked = message;
      return { action: 'accept', content: { approve: true } };
    },
  });
  const ran = await call(yes.client, 'run_and_condense', { command: ['node', failing] });
  t.falsy(ran.isError, textOf(ran));
  t.is((ran.structuredContent!.command as { allowedBy: string }).allowedBy, 'approved');
  t.true(asked.includes(failing));
  t.true(asked.includes('in a sandbox'));
  await yes.close();

  const no = await connect(server({ allowCommands: [] }), { elicit: () => ({ action: 'decline' }) });
  const refused = await call(no.client, 'run_and_condense', { command: ['node', failing] });
  t.regex(textOf(refused), /WISP_COMMAND_NOT_ALLOWED: the user did not approve/);
  await no.close();
});

test('bad arguments and unknown or evicted handles get errors with a recovery hint', async (t) => {
  const { client, close } = await connect(server({ rawLimits: { maxCount: 1 } }));
  t.regex(textOf(await call(client, 'condense_log', {})), /WISP_BAD_ARGUMENT: give one source: path, text or last/);
  t.regex(textOf(await call(client, 'condense_log', { path: logPath, text: 'x' })), /exactly one source, got path and text/);
  const badTop = await call(client, 'condense_log', { text: 'x', top: 0 });
  t.true(badTop.isError);
  const unknown = await call(client, 'grep_raw', { handle: 'raw_00000000000000000000', pattern: 'x' });
  t.regex(textOf(unknown), /WISP_UNKNOWN_HANDLE/);
  const first = await call(client, 'condense_log', { text: 'first payload\n' });
  await call(client, 'condense_log', { text: 'second payload\n' });
  const evicted = await call(client, 'grep_raw', { handle: first.structuredContent!.handle, pattern: 'x' });
  t.regex(textOf(evicted), /WISP_HANDLE_EVICTED: .* run the condensing call again/);
  const badRegex = await call(client, 'grep_raw', { handle: (await call(client, 'condense_log', { text: 'a\n' })).structuredContent!.handle, pattern: '(', regex: true });
  t.regex(textOf(badRegex), /WISP_BAD_ARGUMENT: pattern is not a valid regular expression/);
  await close();
});

test('the audit log: every call, argv as an array (redacted), how a command was allowed and how it ended', async (t) => {
  const dir = stateDir();
  const { client, close } = await connect(
    { roots: [root], allowCommands: [['node']], stateDir: dir },
    { elicit: () => ({ action: 'accept', content: { approve: true } }) },
  );
  const r = await call(client, 'condense_log', { path: logPath });
  await call(client, 'run_and_condense', { command: ['node', failing, 'a b', 'password=hunter2secret'] });
  await call(client, 'run_and_condense', { command: ['no-such-program-here', 'x'] });
  await call(client, 'condense_log', { path: secretOutside });
  await call(client, 'grep_raw', { handle: r.structuredContent!.handle, pattern: 'x' });
  await close();
  const denied = await connect({ roots: [root], allowCommands: [], stateDir: dir });
  await call(denied.client, 'run_and_condense', { command: ['rm', '-rf', root] });
  await denied.close();

  const raw = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
  t.false(raw.includes('hunter2secret'));
  const entries = raw.trim().split('\n').map((l) => JSON.parse(l));
  t.is(entries.length, 6);
  t.like(entries[0], { tool: 'condense_log', source: logPath, outcome: 'ok', bytes: Buffer.byteLength(logText) });
  t.like(entries[1], { tool: 'run_and_condense', outcome: 'ok', command: { outcome: 'ran', allowedBy: 'allowlist', exitStatus: 2, timedOut: false, sandbox: 'bwrap' } });
  t.deepEqual(entries[1].command.argv.slice(0, 3), ['node', failing, 'a b'], 'argv keeps its boundaries');
  t.regex(entries[1].command.argv[3], /^password=\[REDACTED/);
  t.like(entries[2], { tool: 'run_and_condense', outcome: 'error', command: { outcome: 'failed', allowedBy: 'approved' } });
  t.like(entries[3], { tool: 'condense_log', outcome: 'error' });
  t.like(entries[4], { tool: 'grep_raw', outcome: 'ok' });
  t.like(entries[5], { tool: 'run_and_condense', outcome: 'refused', command: { outcome: 'refused', argv: ['rm', '-rf', root] } });
  for (const e of entries) t.regex(e.time, /^\d{4}-\d\d-\d\dT/);
});

test('progress notifications when the request carries a progress token', async (t) => {
  const { client, close } = await connect(server());
  const big = writeTemp(root, 'big.log', mixedLog(120_000));
  const messages: string[] = [];
  const r = await client.callTool({ name: 'condense_log', arguments: { path: big } }, undefined, {
    onprogress: (p) => messages.push(String(p.message)),
  });
  t.falsy(r.isError);
  t.true(messages.length >= 1, 'at least one progress notification');
  t.regex(messages[0]!, /^read [\d.]+ of [\d.]+ MB$/);
  await close();
});

test('results are redacted: a secret in the log never reaches the client', async (t) => {
  const { client, close } = await connect(server());
  const file = writeTemp(root, 'secrets.log', '2025-01-01T00:00:00Z ERROR login failed password=hunter2secret\n2025-01-01T00:00:01Z INFO key AKIAIOSFODNN7EXAMPLQ\n');
  const r = await call(client, 'condense_log', { path: file });
  const all = textOf(r) + JSON.stringify(r.structuredContent);
  t.false(all.includes('hunter2secret'));
  t.false(all.includes('AKIAIOSFODNN7EXAMPLQ'));
  const g = await call(client, 'grep_raw', { handle: r.structuredContent!.handle, pattern: 'password' });
  t.is(g.structuredContent!.totalMatches, 1);
  t.false(JSON.stringify(g).includes('hunter2secret'));
  const res = await client.readResource({ uri: `wisp://raw/${r.structuredContent!.handle}` });
  t.false(JSON.stringify(res).includes('hunter2secret'));
  await close();
});

test('logging: the capability is declared and logging/setLevel is answered', async (t) => {
  const { client, close } = await connect(server());
  t.truthy(client.getServerCapabilities()?.logging);
  await t.notThrowsAsync(client.setLoggingLevel('warning'));
  await close();
});

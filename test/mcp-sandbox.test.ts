import test from 'ava';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs, commandEnv, seatbeltProfile, secretPaths } from '../src/input/sandbox.js';
import { call, connectStdio, textOf, type StdioConnected } from './mcp-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

const base = tempDir('mcp-sandbox');
const root = join(base, 'root');
mkdirSync(root);
// Inside the root on purpose: only the sandbox's own rule hides it.
const stateDir = join(root, '.wisp-state');
const outsideFile = join(base, 'outside.txt');
const homeProbe = join(homedir(), `wisp-sandbox-probe-${process.pid}`);
const isLinux = process.platform === 'linux';

/** A script that tries one thing and prints `RESULT name=outcome` lines. */
const probe = (name: string, body: string): string =>
  writeTemp(root, `${name}.cjs`, `const fs = require('fs'); const out = (k, v) => console.log('RESULT ' + k + '=' + v);\nconst attempt = (k, f) => { try { out(k, 'ok:' + String(f()).slice(0, 40)); } catch (e) { out(k, e.code || e.message); } };\n${body}\n`);

const scripts = {
  inside: probe('inside', `attempt('write-root', () => { fs.writeFileSync(${JSON.stringify(join(root, 'written.txt'))}, 'from the sandbox'); return 'written'; });`),
  outside: probe(
    'outside',
    [
      `attempt('write-outside', () => { fs.writeFileSync(${JSON.stringify(outsideFile)}, 'x'); return 'written'; });`,
      `attempt('write-home', () => { fs.writeFileSync(${JSON.stringify(homeProbe)}, 'x'); return 'written'; });`,
      `attempt('write-etc', () => { fs.writeFileSync('/etc/wisp-sandbox-probe', 'x'); return 'written'; });`,
    ].join('\n'),
  ),
  secrets: probe(
    'secrets',
    [
      "attempt('umount', () => require('child_process').execFileSync('umount', ['/etc/shadow'], { stdio: 'pipe' }));",
      "attempt('shadow', () => fs.readFileSync('/etc/shadow', 'utf8').split(':')[0]);",
      `attempt('state', () => fs.readFileSync(${JSON.stringify(join(stateDir, 'audit.jsonl'))}, 'utf8').length);`,
      `attempt('state-list', () => fs.readdirSync(${JSON.stringify(stateDir)}).join(',') || 'empty');`,
      "attempt('uid', () => process.getuid());",
    ].join('\n'),
  ),
  network: probe('network', "const port = Number(process.argv[2]); const s = require('net').connect(port, '127.0.0.1'); s.on('connect', () => { out('connect', 'ok'); s.destroy(); }); s.on('error', (e) => out('connect', e.code));"),
  env: probe('env', "attempt('probe', () => process.env.WISP_PROBE_VALUE ?? 'unset'); attempt('names', () => Object.keys(process.env).sort().join(','));"),
};

/** Runs a probe through run_and_condense and reads its RESULT lines back from the raw payload. */
async function results(s: StdioConnected, script: string, ...args: string[]): Promise<Record<string, string>> {
  const r = await call(s.client, 'run_and_condense', { command: ['node', script, ...args] });
  if (r.isError) throw new Error(textOf(r));
  const raw = await s.client.readResource({ uri: `wisp://raw/${r.structuredContent!.handle}` });
  const out: Record<string, string> = {};
  for (const line of (raw.contents[0] as { text: string }).text.split('\n')) {
    const m = /^RESULT ([\w-]+)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

let listener: ReturnType<typeof createServer>;
let port = 0;
test.before(async () => {
  listener = createServer((c) => c.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
test.after.always(() => listener?.close());

const start = (extra: string[] = [], env?: Record<string, string>): Promise<StdioConnected> =>
  connectStdio(['--root', root, '--state-dir', stateDir, '--allow-command', 'node', ...extra], {}, env);

test('inside bubblewrap: a command writes in its root, but not outside it, reads no secrets or state, even as root', async (t) => {
  if (!isLinux) return t.pass('bubblewrap is Linux only');
  const s = await start();
  try {
    const ok = await call(s.client, 'run_and_condense', { command: ['node', scripts.inside] });
    t.like(ok.structuredContent!, { command: { sandbox: 'bwrap', exitStatus: 0 } });
    t.is(readFileSync(join(root, 'written.txt'), 'utf8'), 'from the sandbox');

    const out = await results(s, scripts.outside);
    t.false(existsSync(outsideFile), `a write outside the roots does not land (${out['write-outside']})`);
    t.is(out['write-home'], 'EROFS');
    t.is(out['write-etc'], 'EROFS');
    t.false(existsSync(homeProbe));

    const sec = await results(s, scripts.secrets);
    t.false(String(sec.shadow).startsWith('ok'), `/etc/shadow: ${sec.shadow}`);
    t.false(String(sec.umount).startsWith('ok'), 'no capability to unmount what hides a secret');
    t.not(sec.state?.slice(0, 3), 'ok:', `the state dir's audit log: ${sec.state}`);
    t.is(sec['state-list'], 'ok:empty', "the state dir shows as empty: the payloads are not visible");
    if (process.getuid?.() === 0) t.is(sec.uid, 'ok:0', 'this ran as root, and still could not read them');
  } finally {
    await s.close();
  }
});

test('no network inside the sandbox unless --allow-network', async (t) => {
  if (!isLinux) return t.pass('bubblewrap is Linux only');
  const closed = await start();
  try {
    t.is((await results(closed, scripts.network, String(port))).connect, 'ECONNREFUSED');
  } finally {
    await closed.close();
  }
  const open = await start(['--allow-network']);
  try {
    t.is((await results(open, scripts.network, String(port))).connect, 'ok');
  } finally {
    await open.close();
  }
});

test('a clean environment: a variable reaches the command only when named with --pass-env', async (t) => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homedir(), WISP_PROBE_VALUE: 'plainprobevalue' };
  const plain = await start([], env);
  try {
    const r = await results(plain, scripts.env);
    t.is(r.probe, 'ok:unset');
  } finally {
    await plain.close();
  }
  const passing = await start(['--pass-env', 'WISP_PROBE_VALUE'], env);
  try {
    t.is((await results(passing, scripts.env)).probe, 'ok:plainprobevalue');
  } finally {
    await passing.close();
  }
});

test('no sandbox on the machine: commands are refused, naming the package and --no-sandbox; --no-sandbox runs them unconfined', async (t) => {
  // A PATH without bwrap on it: the server looks for the sandbox there.
  const env = { PATH: join(base, 'empty-bin'), HOME: homedir() };
  const none = await connectStdio(['--root', root, '--state-dir', join(base, 'state-none'), '--allow-command', process.execPath], {}, env);
  try {
    const r = await call(none.client, 'run_and_condense', { command: [process.execPath, scripts.inside] });
    t.true(r.isError);
    t.regex(textOf(r), /^WISP_UNAVAILABLE: .*bubblewrap.*install the bubblewrap package .*--no-sandbox/);
  } finally {
    await none.close();
  }
  const audit = readFileSync(join(base, 'state-none', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  t.like(audit.at(-1), { outcome: 'refused', command: { outcome: 'refused', allowedBy: 'allowlist' } });

  const unconfined = await connectStdio(['--root', root, '--state-dir', join(base, 'state-none'), '--allow-command', process.execPath, '--no-sandbox'], {}, env);
  try {
    const { tools } = await unconfined.client.listTools();
    t.regex(tools.find((x) => x.name === 'run_and_condense')!.description!, /WITHOUT a sandbox/);
    const r = await call(unconfined.client, 'run_and_condense', { command: [process.execPath, scripts.inside] });
    t.falsy(r.isError, textOf(r));
    t.like(r.structuredContent!, { command: { sandbox: 'none', exitStatus: 0 } });
  } finally {
    await unconfined.close();
  }
});

test('bubblewrap arguments: all namespaces and capabilities dropped, /tmp private before the roots, hidden paths last', (t) => {
  const dir = tempDir('mcp-sandbox-args');
  const hiddenDir = join(dir, 'state');
  mkdirSync(hiddenDir);
  const hiddenFile = writeTemp(dir, 'secret', 'x');
  const args = bwrapArgs(['npm', 'test'], { writable: ['/work/project'], hidden: [hiddenDir, hiddenFile], network: false, cwd: '/work/project' });
  t.deepEqual(args.slice(0, 6), ['bwrap', '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']);
  t.false(args.includes('--share-net'));
  const at = (...seq: string[]): number => args.findIndex((_, i) => seq.every((s, k) => args[i + k] === s));
  t.true(at('--ro-bind', '/', '/') >= 0);
  t.true(at('--tmpfs', '/tmp') < at('--bind', '/work/project', '/work/project'));
  t.true(at('--bind', '/work/project', '/work/project') < at('--tmpfs', hiddenDir));
  t.true(at('--ro-bind', '/dev/null', hiddenFile) > 0);
  t.deepEqual(args.slice(-3), ['--', 'npm', 'test']);
  t.true(bwrapArgs(['true'], { writable: [], hidden: [], network: true, cwd: undefined }).includes('--share-net'));
});

test('the macOS profile: writes only under the roots and its temp folder, no network, hidden paths denied last, paths escaped', (t) => {
  const profile = seatbeltProfile({ writable: ['/Users/me/project "x"'], hidden: ['/Users/me/.ssh', '/var/wisp\\state'], network: false, cwd: undefined }, '/private/tmp/wisp-command-1');
  const lines = profile.split('\n');
  t.is(lines[0], '(version 1)');
  t.is(lines[1], '(allow default)');
  t.true(lines.includes('(deny network*)'));
  t.true(profile.includes('(subpath "/Users/me/project \\"x\\"")'));
  t.true(profile.includes('(subpath "/private/tmp/wisp-command-1")'));
  t.true(profile.includes('(subpath "/var/wisp\\\\state")'));
  const order = ['(deny network*)', '(deny file-write*)', '(allow file-write*', '(deny file-read* file-write*'].map((s) => profile.indexOf(s));
  t.deepEqual([...order].sort((a, b) => a - b), order, 'the last matching rule wins: the denials of hidden paths come last');
  t.false(seatbeltProfile({ writable: [], hidden: [], network: true, cwd: undefined }, '/tmp/x').includes('network'));
});

test('what is hidden and what is passed: secrets under the system and the home folder; base variables only', (t) => {
  const linux = secretPaths('/home/me', 'linux');
  for (const p of ['/etc/shadow', '/home/me/.ssh', '/home/me/.aws', '/home/me/.config']) t.true(linux.includes(p), p);
  t.true(secretPaths('/Users/me', 'darwin').includes('/Users/me/Library/Keychains'));
  const env = commandEnv({ PATH: '/bin', HOME: '/h', AWS_SECRET_ACCESS_KEY: 'k', GITHUB_TOKEN: 't', CI: '1' }, ['CI'], undefined);
  t.deepEqual(env, { PATH: '/bin', HOME: '/h', CI: '1', TMPDIR: '/tmp' });
});

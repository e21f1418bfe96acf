import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WISP_VERSION } from '../src/core/version.js';
import { ROOT, WISP_BIN, runCli, tempDir } from './helpers.js';

const packageVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test("the version in src/ is package.json's", (t) => {
  t.regex(packageVersion, /^\d+\.\d+\.\d+/);
  t.is(WISP_VERSION, packageVersion);
});

test("the package's exports: import 'wisp' is the library, and says the same version", async (t) => {
  // A package may import itself by name through its exports; a variable keeps tsc from resolving it before dist/ exists.
  const name = 'wisp';
  const lib = (await import(name)) as typeof import('../src/index.js');
  t.is(lib.WISP_VERSION, packageVersion);
  t.is(typeof lib.condenseLog, 'function');
  t.is(typeof lib.jsonShape, 'function');
  const r = await lib.condenseLog([lib.textSource('t', '2026-01-01 00:00:00 ERROR disk full\n')], { workers: 0 });
  t.is(r.kind, 'log');
});

test("wisp --version and the MCP handshake say package.json's version", async (t) => {
  const cli = await runCli(['--version']);
  t.is(cli.code, 0);
  t.is(cli.stdout, `wisp ${packageVersion}\n`);
  const dir = tempDir('version');
  const transport = new StdioClientTransport({ command: process.execPath, args: [WISP_BIN, 'mcp', '--root', dir, '--state-dir', join(dir, 'state')], stderr: 'pipe' });
  const client = new Client({ name: 'wisp-version-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    t.deepEqual(client.getServerVersion(), { name: 'wisp', version: packageVersion });
  } finally {
    await client.close();
  }
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../src/cli/io.js';

/** The repository root, from dist/test/. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WISP_BIN = join(ROOT, 'bin', 'wisp.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI as a child process, as a user would. */
export function runCli(args: string[], stdin?: string | Buffer, env?: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WISP_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], ...(env === undefined ? {} : { env: { ...process.env, ...env } }) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(stdin ?? '');
  });
}

/** A temporary folder removed when the test process ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `wisp-${prefix}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeTemp(dir: string, name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** Runs a CLI command in this process with `stdin` as its input: its exit code and what it printed. */
export async function runInProcess(command: (args: string[], io: CliIo) => Promise<number>, args: string[], stdin = ''): Promise<CliRun & { code: number }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const code = await command(args, { stdout, stderr, stdin: Readable.from([Buffer.from(stdin)]) });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

#!/usr/bin/env node
/**
 * Builds wisp's native library with the system C compiler:
 *   Linux: native/build/libwisp.so     macOS: native/build/libwisp.dylib
 *
 * `cc` is used unless CC names another compiler. No compiler: a clear message on stderr
 * and exit status 1; with --optional (the package's install script), the message says
 * what is unavailable without the library and the install goes on (exit 0). The library is written under a temporary name and renamed, so a
 * process that loads it never sees half a file. Nothing here runs through a shell.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');
const out = join(here, 'build');

const platform = process.platform;
const targets = {
  linux: {
    file: 'libwisp.so',
    sources: ['common.c', 'template.c', 'redact_scan.c', 'log_header.c', 'log_chunk.c', 'linux_util.c', 'linux_proc.c', 'linux_ports.c', 'linux_journal.c'],
    flags: ['-shared', '-fPIC', '-pthread'],
    libs: ['-ldl'],
  },
  darwin: {
    file: 'libwisp.dylib',
    sources: ['common.c', 'template.c', 'redact_scan.c', 'log_header.c', 'log_chunk.c', 'macos_proc.c', 'macos_ports.c', 'macos_log.m'],
    flags: ['-dynamiclib', '-fPIC', '-fobjc-arc', '-mmacosx-version-min=12.0'],
    libs: ['-framework', 'Foundation', '-framework', 'OSLog'],
  },
};

const target = targets[platform];
if (target === undefined) {
  fail(`wisp's native library supports Linux and macOS, not ${platform}; system_info's process and port topics and the system log will be unavailable`);
}

const cc = process.env.CC?.trim() || 'cc';
const probe = spawnSync(cc, ['--version'], { encoding: 'utf8', timeout: 30_000 });
if (probe.error !== undefined || probe.status !== 0) {
  const why = probe.error?.code === 'ENOENT' ? `no C compiler named '${cc}' was found on PATH` : `'${cc} --version' failed`;
  fail(
    `${why}. wisp's native library needs one: install a C compiler (Debian/Ubuntu: apt-get install gcc; ` +
      `macOS: xcode-select --install), or set CC, then run: node native/build.mjs`,
  );
}

mkdirSync(out, { recursive: true });
const final = join(out, target.file);
const temp = join(out, `.${target.file}.${process.pid}.tmp`);
const args = [
  '-std=gnu11',
  '-O2',
  '-Wall',
  '-Wextra',
  '-Wno-unused-parameter',
  '-fvisibility=hidden',
  ...target.flags,
  '-o',
  temp,
  ...target.sources.map((s) => join(src, s)),
  ...target.libs,
];
const started = performance.now();
const run = spawnSync(cc, args, { encoding: 'utf8', timeout: 120_000 });
if (run.stdout) process.stderr.write(run.stdout);
if (run.stderr) process.stderr.write(run.stderr);
if (run.error !== undefined || run.status !== 0) {
  rmSync(temp, { force: true });
  fail(`compiling the native library failed (${cc} exited ${run.status ?? run.error?.message})`);
}
renameSync(temp, final);
process.stderr.write(`wisp: built ${final} in ${Math.round(performance.now() - started)} ms\n`);

function fail(message) {
  process.stderr.write(`wisp native build: ${message}\n`);
  if (process.argv.includes('--optional')) {
    process.stderr.write(
      'wisp native build: wisp is installed without it: wisp shape, redact and the MCP tools other than condense_log work; ' +
        "wisp log and condense_log (their template scan is native), wisp info's process and port topics, memory's largest processes " +
        'and the system log say they are unavailable until it is built\n',
    );
    process.exit(0);
  }
  process.exit(1);
}

import test from 'ava';
import { readFileSync } from 'node:fs';
import { readProcessTable } from '../src/native/processes.js';
import { cpuPercent } from '../src/system-info/process-view.js';
import { startNamedChild } from './native-children.js';
import { tempDir } from './helpers.js';

const dir = tempDir('native-proc');

test('the process table holds the test process as it is', async (t) => {
  const table = await readProcessTable();
  const self = table.processes.find((p) => p.pid === process.pid);
  t.truthy(self, 'the test process is listed');
  t.is(self!.ppid, process.ppid);
  t.is(self!.uid, process.getuid!());
  t.is(self!.name, 'node');
  t.false(self!.kernelThread);
  t.true(self!.cmdline.length > 0 && self!.cmdline.includes('node'), self!.cmdline);
  t.true(self!.threads >= 1);
  // Resident memory as the kernel counts it: within a factor of two of Node's own view.
  const rss = process.memoryUsage().rss;
  t.true(self!.rssBytes > rss / 2 && self!.rssBytes < rss * 2, `${self!.rssBytes} vs ${rss}`);
  const now = Date.now() / 1000;
  t.true(self!.startEpochS <= now + 1 && self!.startEpochS > now - 3600, `started ${now - self!.startEpochS} s ago`);
  t.true(table.seen >= table.processes.length && table.processes.length > 3);
  t.true(table.tickNs > 0);
  // The sample is taken inside the call; the interval is measured, about what was asked.
  t.true(table.intervalNs >= 450e6 && table.intervalNs < 5e9, `interval ${table.intervalNs}`);
});

/** The scheduler's own accounting: ns on a CPU and ns waiting for one (/proc/<pid>/schedstat). */
function schedstat(pid: number): { run: number; wait: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  return { run: run ?? 0, wait: wait ?? 0 };
}

test('CPU%: a busy child is near a full core, an idle one near zero', async (t) => {
  const busy = await startNamedChild(dir, 'wisp-busy', 'busy');
  const idle = await startNamedChild(dir, 'wisp-idle', 'idle');
  try {
    // Two cores are shared with other test files and other work, so the busy child may get
    // less than a core. The kernel's scheduler accounting, read around the same sample,
    // says how much it wanted (run + wait) and how much it got (run): wisp's figure must
    // match what it got, and be near a full core whenever the child was not kept waiting.
    const before = schedstat(busy.pid);
    const t0 = process.hrtime.bigint();
    const table = await readProcessTable({ sampleMs: 500 });
    const window = Number(process.hrtime.bigint() - t0);
    const after = schedstat(busy.pid);
    const b = table.processes.find((p) => p.pid === busy.pid);
    const i = table.processes.find((p) => p.pid === idle.pid);
    t.truthy(b);
    t.truthy(i);
    const busyCpu = cpuPercent(b!, table.intervalNs)!;
    const idleCpu = cpuPercent(i!, table.intervalNs)!;
    const got = ((after.run - before.run) / window) * 100;
    const waited = ((after.wait - before.wait) / window) * 100;
    t.log(`busy child: wisp ${busyCpu.toFixed(1)}%, scheduler ran it ${got.toFixed(1)}% and kept it waiting ${waited.toFixed(1)}%`);
    t.true(got + waited >= 85, `the busy child wanted a full core: ran ${got.toFixed(1)}% + waited ${waited.toFixed(1)}%`);
    t.true(Math.abs(busyCpu - got) <= 15, `wisp ${busyCpu.toFixed(1)}% vs scheduler ${got.toFixed(1)}%`);
    if (waited < 25) t.true(busyCpu >= 50, `not starved, so near a full core: ${busyCpu.toFixed(1)}%`);
    t.true(busyCpu <= 110, `one thread cannot use more than one core: ${busyCpu.toFixed(1)}%`);
    t.true(idleCpu < 10, `idle child at ${idleCpu.toFixed(1)}% of a core`);
    t.is(b!.name, 'wisp-busy');
    t.is(b!.exeBase, 'node');
    t.is(b!.argv0Base, 'wisp-busy');
    t.is(b!.ppid, process.pid);
    t.is(b!.state, 'R');
  } finally {
    busy.stop();
    idle.stop();
  }
});

test('a name with spaces and parentheses is read whole, and the fields after it stay right', async (t) => {
  const odd = await startNamedChild(dir, 'a b) c', 'idle');
  try {
    const table = await readProcessTable({ sampleMs: 0 });
    const p = table.processes.find((x) => x.pid === odd.pid);
    t.truthy(p);
    t.is(p!.name, 'a b) c');
    t.is(p!.ppid, process.pid);
    t.is(p!.argv0Base, 'a b) c');
    t.true(p!.cmdline.endsWith("setInterval(() => {}, 1e9);"), p!.cmdline);
  } finally {
    odd.stop();
  }
});

test('kernel threads have no command line and are marked', async (t) => {
  const table = await readProcessTable({ sampleMs: 0 });
  const kthreadd = table.processes.find((p) => p.name === 'kthreadd');
  if (kthreadd === undefined) {
    // In a pid namespace the kernel's threads are not visible: nothing to check, say so.
    t.log('no kthreadd in this pid namespace');
    t.pass();
    return;
  }
  t.true(kthreadd.kernelThread);
  t.is(kthreadd.cmdline, '');
});

test('a long call is cancelled through its token', async (t) => {
  const controller = new AbortController();
  const started = performance.now();
  const pending = readProcessTable({ sampleMs: 5000, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  const err = await t.throwsAsync(pending);
  t.is((err as { code?: string }).code, 'WISP_CANCELLED');
  // A behaviour check with a wide margin: far sooner than the 5 s sample.
  t.true(performance.now() - started < 4000);
});

test('a bad sample length is refused before the native call', async (t) => {
  const err = await t.throwsAsync(readProcessTable({ sampleMs: 6000 }));
  t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT');
});

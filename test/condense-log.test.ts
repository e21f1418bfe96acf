import test, { type ExecutionContext } from 'ava';
import { condenseLog, condenseLogState } from '../src/log/index.js';
import { mergeWordVariables } from '../src/log/group/word-variables.js';
import type { CondenseLogOptions } from '../src/log/options.js';
import { textSource } from '../src/input/sources.js';
import {
  githubActionsLog,
  ghRunViewLog,
  javaServiceLog,
  jsonLinesLog,
  logShowCompact,
  logShowDefault,
  mixedLog,
  nginxErrorLog,
  syslogWithPriority,
  tlsIncidentLog,
  wordVariableLog,
} from '../fixtures/logs.js';
import { asLog, condense, find } from './condense-helpers.js';
import { renderLogText } from '../src/log/render/log-text.js';
import { ALWAYS_LINES, ENDING_BYTES, QUIET_KEPT } from '../src/log/rank/ending.js';
import { TAIL_LINES } from '../src/log/read/raw-lines.js';
import type { SeverityName } from '../src/log/model/severity.js';

test('the same input gives byte-identical results whatever the worker count and chunk size', async (t) => {
  const text = mixedLog(30_000) + javaServiceLog(3_000);
  const reference = JSON.stringify(await condense(text, { workers: 0 }));
  for (const options of [
    { workers: 1, chunkBytes: 64 * 1024 },
    { workers: 2, chunkBytes: 100_000 },
    { workers: 3, chunkBytes: 7_777 },
    { workers: 0, chunkBytes: 1 },
  ]) {
    t.is(JSON.stringify(await condense(text, options)), reference, JSON.stringify(options));
  }
});

test('a line without a timestamp continues the record before it, across chunk boundaries', async (t) => {
  const text = javaServiceLog(400);
  const whole = await condense(text);
  const tiny = await condense(text, { chunkBytes: 40, workers: 2 });
  t.deepEqual(tiny, whole);
  const failed = find(whole, 'c.e.OrderService - Order <NUM> failed');
  t.truthy(failed);
  t.is(failed!.severity, 'error');
  // Every stack frame and cause line belongs to its ERROR record, none forms a group of its own.
  t.true(failed!.lines > failed!.count * 4);
  t.falsy(whole.groups.find((g) => g.template.startsWith('\tat ') || g.template.startsWith('Caused by')));
  t.deepEqual(failed!.exampleMore.slice(0, 1), ['java.lang.IllegalStateException: inventory unavailable']);
  t.is(whole.totals.lines, text.split('\n').length - 1);
});

test('log show default style: the Type column decides severity, header and footer are not log lines', async (t) => {
  const r = await condense(logShowDefault(3_000));
  t.is(r.format, 'log show (default style)');
  t.is(r.read.frameLines, 5);
  t.falsy(r.groups.find((g) => /^(Log|Activity) +- |^-{20}|^Timestamp|^Filtering/.test(g.template)));
  const critical = find(r, 'critical error count is <NUM>');
  t.is(critical?.severity, 'notice', 'a Default line full of "critical error" stays Default');
  t.is(find(r, 'Peer connection <HEX> failed')?.severity, 'error');
  t.is(find(r, 'Unexpected state for zone <UUID>')?.severity, 'critical');
  t.is(find(r, 'fix accuracy')?.severity, 'debug');
  const multi = find(r, 'Discoverable mode changed from');
  t.truthy(multi);
  t.is(multi!.lines, multi!.count * 3, 'a message with newlines is one record');
  // Severity first: the fault group ranks above every error group, errors above notices.
  const ranks = r.groups.map((g) => g.severity);
  t.is(ranks[0], 'critical');
  t.true(ranks.indexOf('notice') > ranks.lastIndexOf('error'));
});

test('log show compact style: two-letter type codes decide severity', async (t) => {
  const r = await condense(logShowCompact(500));
  t.is(r.format, 'log show (compact style)');
  const bySeverity = new Set(r.groups.map((g) => g.severity));
  t.deepEqual([...bySeverity].sort(), ['critical', 'debug', 'error', 'info', 'notice']);
  for (const g of r.groups) {
    if (g.template.includes('critical error budget')) t.is(g.severity, 'notice');
    // [pid:tid] is one placeholder, so processes do not split per pid.
    t.false(/\[\d+:/.test(g.template));
  }
});

test('syslog priorities, JSON levels, nginx and GitHub Actions markers give severity', async (t) => {
  const sys = await condense(syslogWithPriority(200));
  t.deepEqual(new Set(sys.groups.map((g) => g.severity)), new Set(['critical', 'error', 'warning', 'info']));

  const json = await condense(jsonLinesLog(400));
  t.is(json.format, 'JSON lines log');
  t.truthy(json.groups.find((g) => g.template === 'request <NUM> failed' && g.severity === 'error'), 'pino 50 is error');
  t.truthy(json.groups.find((g) => g.template === 'request <NUM> failed' && g.severity === 'critical'), 'pino 60 is fatal');
  t.truthy(json.groups.find((g) => g.template === 'job <NUM> crashed' && g.severity === 'error'), 'string level error');
  t.truthy(json.groups.find((g) => g.template === 'job <NUM> progress' && g.severity === 'warning'), 'string level warn');

  const nginx = await condense(nginxErrorLog(100));
  t.deepEqual(new Set(nginx.groups.map((g) => g.severity)), new Set(['critical', 'error', 'warning', 'notice']));

  const gha = await condense(githubActionsLog());
  t.is(gha.format, 'GitHub Actions');
  const err = find(gha, '##[error]Process completed');
  t.is(err?.severity, 'error');
  t.is(err?.lines, 2, 'the error message continues on a line without a timestamp');
  t.is(find(gha, '##[warning]')?.severity, 'warning');
});

test('gh run view: job and step prefixes, continuation after them, terminal colours dropped', async (t) => {
  const r = await condense(ghRunViewLog());
  t.is(r.format, 'GitHub Actions (gh run view)');
  const files = r.groups.filter((g) => g.template.includes('Test Files'));
  t.is(files.length, 1, 'colour codes do not split an event');
  t.is(files[0]!.template, 'test (node <NUM>)\tRun npm test\t Test Files  <NUM> failed | <NUM> passed');
  t.false(files[0]!.example.includes('\x1b'));
  const assertion = find(r, 'AssertionError');
  t.is(assertion?.severity, 'error');
  t.is(assertion?.lines, 3, 'lines with the prefix but no timestamp continue the record');
});

test('words decide severity only when the log declares none', async (t) => {
  const r = await condense('starting up\nconnection refused by peer\nWARNING: disk nearly full\nkernel panic - not syncing\nall good\n');
  t.is(r.format, 'plain text');
  t.is(find(r, 'connection refused')?.severity, 'error');
  t.is(find(r, 'disk nearly full')?.severity, 'warning');
  t.is(find(r, 'kernel panic')?.severity, 'critical');
  t.is(find(r, 'all good')?.severity, 'info');
});

test('variables become typed placeholders so one event is one group', async (t) => {
  const lines = [
    '2025-01-01T00:00:01Z INFO worker[123:456] job 42 took 3.5 ms on 10.0.0.1:8080 id 3f2a1b4c-1d2e-4f3a-9b8c-7d6e5f4a3b2c hash 0xdeadbeef mac 00:1a:2b:3c:4d:5e',
    '2025-01-01T00:00:02Z INFO worker[99:7] job 7 took 12.25 ms on 192.168.1.20:443 id 00000000-1111-2222-3333-444444444444 hash 0x1f mac aa:bb:cc:dd:ee:ff',
    '2025-01-01T00:00:03Z INFO worker[5:5] job 900 took 1 ms on ::1 id 3f2a1b4c-1d2e-4f3a-9b8c-7d6e5f4a3b2d hash 0xABC mac 01:02:03:04:05:06',
  ];
  const r = await condense(`${lines.join('\n')}\n`);
  t.is(r.totals.groups, 1, JSON.stringify(r.groups.map((g) => g.template)));
  t.is(r.groups[0]!.template, 'INFO worker[<PID>] job <NUM> took <NUM> ms on <IP> id <UUID> hash <HEX> mac <MAC>');
  t.is(r.groups[0]!.firstTime, '2025-01-01T00:00:01Z');
  t.is(r.groups[0]!.lastTime, '2025-01-01T00:00:03Z');
  t.is(r.groups[0]!.firstLine, 1);
  t.is(r.groups[0]!.lastLine, 3);
  // A different word is a different event.
  const two = await condense('2025-01-01T00:00:01Z INFO VM 3 Started\n2025-01-01T00:00:02Z INFO VM 4 Paused\n');
  t.is(two.totals.groups, 2);
});

test('ranking: severity, then count, then first line; omitted groups and lines are accounted for', async (t) => {
  const text = mixedLog(5_000);
  const r = await condense(text, { top: 3 });
  t.is(r.groups.length, 3);
  const all = await condense(text, { top: 1000 });
  t.deepEqual(r.groups, all.groups.slice(0, 3));
  for (let i = 1; i < all.groups.length; i++) {
    const a = all.groups[i - 1]!;
    const b = all.groups[i]!;
    const order = ['critical', 'error', 'warning', 'notice', 'info', 'debug'];
    const sa = order.indexOf(a.severity);
    const sb = order.indexOf(b.severity);
    t.true(sa < sb || (sa === sb && (a.count > b.count || (a.count === b.count && a.firstLine < b.firstLine))));
  }
  const shownLines = r.groups.reduce((n, g) => n + g.lines, 0);
  t.is(shownLines + r.omitted.lines, r.totals.lines);
  t.is(r.omitted.groups, all.totals.groups - 3);
  const bySev = Object.values(r.omitted.bySeverity).reduce((n, c) => n + c.lines, 0);
  t.is(bySev, r.omitted.lines);
});

test('examples and templates are redacted', async (t) => {
  const secrets = [
    'hunter2secret',
    'AKIAIOSFODNN7EXAMPLQ',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    's3cr3tpassw0rd',
    'abcdef0123456789token',
  ];
  const text = [
    '2025-01-01T00:00:01Z ERROR login failed password=hunter2secret for user 4',
    '2025-01-01T00:00:02Z WARN  aws key AKIAIOSFODNN7EXAMPLQ in env',
    `2025-01-01T00:00:03Z INFO  sent Authorization: Bearer ${secrets[2]}`,
    '2025-01-01T00:00:04Z ERROR db postgres://app:s3cr3tpassw0rd@db.internal:5432/app unreachable',
    '2025-01-01T00:00:05Z INFO  token=abcdef0123456789token accepted',
  ].join('\n');
  const r = await condense(`${text}\n`);
  const shown = JSON.stringify(r.groups);
  for (const s of secrets) t.false(shown.includes(s), s);
  t.true(shown.includes('[REDACTED:'));
  t.true(shown.includes('postgres://app:'), 'the user stays');
});

test('several inputs: line numbers run on, records do not continue across inputs', async (t) => {
  const a = '2025-01-01T00:00:01Z ERROR first\n2025-01-01T00:00:02Z INFO tail of a\n';
  const b = '  at frame.without.timestamp (x.js:1)\n2025-01-01T00:00:03Z INFO in b\n';
  const r = asLog(await condenseLog([textSource('a.log', a), textSource('b.log', b)], { workers: 0 }));
  t.deepEqual(r.read.inputs.map((i) => [i.name, i.firstLine, i.lines]), [['a.log', 1, 2], ['b.log', 3, 2]]);
  t.is(find(r, 'tail of a')?.lines, 1, 'the frame at the top of b.log does not join a.log');
  t.truthy(find(r, 'at frame.without.timestamp'));
});

test('many inputs: the text names three and counts the rest, so a folder of logs leaves room for its groups; JSON names each', async (t) => {
  const sources = Array.from({ length: 400 }, (_, i) => textSource(`/var/log/app/service-${String(i).padStart(4, '0')}.log`, `2025-01-01T00:00:0${i % 10}Z ERROR disk full on /var (node ${i})\n`));
  const r = asLog(await condenseLog(sources, { workers: 0 }));
  t.is(r.read.inputs.length, 400);
  const text = renderLogText(r, 10_000);
  const first = text.split('\n')[0]!;
  t.true(first.includes('from 400 inputs: /var/log/app/service-0000.log, /var/log/app/service-0001.log, /var/log/app/service-0002.log and 397 more (JSON names each)'), first);
  t.true(first.length < 250, `${first.length} characters`);
  t.regex(text, /#1 ERROR x400/);
  // Inputs that could not be read: three named with their reasons, the rest counted.
  const skipped = renderLogText({ ...r, read: { ...r.read, skippedInputs: Array.from({ length: 5 }, (_, i) => ({ name: `gone-${i}.log`, reason: 'not found [WISP_NOT_FOUND]' })) } }, 10_000);
  t.true(skipped.includes('note: skipped gone-2.log: not found'), skipped);
  t.false(skipped.includes('gone-3.log'));
  t.true(skipped.includes('note: skipped 2 more inputs (JSON names each, with its reason)'), skipped);
});

test('maxBytes keeps the tail and says how much of the head was skipped', async (t) => {
  const text = mixedLog(20_000);
  const r = await condense(text, { maxBytes: 100_000, chunkBytes: 16_384 });
  t.true(r.read.skippedHeadBytes > 0);
  t.true(r.read.skippedHeadBytes + 100_000 >= Buffer.byteLength(text));
  t.true(r.read.bytes === Buffer.byteLength(text));
  const keptBytes = Buffer.byteLength(text) - r.read.skippedHeadBytes;
  t.true(keptBytes <= 100_000);
  t.true(r.totals.lines < 20_000);
  // The last line of the input is kept: some group ends on the last line read.
  t.is(Math.max(...r.groups.map((g) => g.lastLine)), r.totals.lines);
  const again = await condense(text, { maxBytes: 100_000, chunkBytes: 3_000, workers: 2 });
  t.deepEqual(again.totals, r.totals);
  t.is(again.read.skippedHeadBytes, r.read.skippedHeadBytes);
});

test('bad options are refused with a stable code', async (t) => {
  for (const options of [{ top: 0 }, { workers: -1 }, { chunkBytes: 0 }, { top: 1.5 }]) {
    const err = await t.throwsAsync(condense('x\n', options as CondenseLogOptions));
    t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT');
  }
});

test('progress is reported every few MB, and an abort stops the work with WISP_CANCELLED', async (t) => {
  const text = mixedLog(150_000);
  const seen: number[] = [];
  const whole = await condenseLog([textSource('big', text)], { workers: 2, onProgress: (p) => seen.push(p.bytes) });
  t.true(seen.length >= 2, `progress calls: ${seen.length}`);
  t.deepEqual(seen, [...seen].sort((a, b) => a - b));
  t.true(seen[seen.length - 1]! <= Buffer.byteLength(text));
  t.is(whole.kind, 'log');

  const controller = new AbortController();
  const err = await t.throwsAsync(
    condenseLog([textSource('big', text)], {
      workers: 2,
      chunkBytes: 64 * 1024,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }),
  );
  t.is((err as { code?: string }).code, 'WISP_CANCELLED');
});

test('word-valued variables merge into one event; a one-word difference and a small enum stay apart', async (t) => {
  const text = wordVariableLog();
  const r = await condense(text);
  const templates = r.groups.map((g) => g.template);
  const accepted = r.groups.filter((g) => g.template.includes('Accepted password for'));
  t.is(accepted.length, 1, templates.join('\n'));
  t.is(accepted[0]!.template, 'INFO sshd: Accepted password for <*> from <*> port <NUM>');
  t.is(accepted[0]!.count, text.split('\n').filter((l) => l.includes('Accepted password')).length);
  t.is(r.groups.filter((g) => g.template.includes('cannot open')).length, 1, 'paths are variables');
  t.deepEqual(r.groups.filter((g) => g.template.includes('hypervisor')).map((g) => g.template).sort(), [
    'INFO hypervisor: VM <NUM> Paused',
    'INFO hypervisor: VM <NUM> Started',
  ]);
  // Three states seen often are an enum, not a variable: apart in the grouping (and so in
  // --assignments), and shown as one group with each state counted, not three slots.
  const state = await condenseLogState([textSource('input', text)], { workers: 0 });
  if (state.kind !== 'merged') throw new Error('not a log');
  t.is(mergeWordVariables([...state.merged.groups.values()]).groups.filter((g) => g.template.includes('node: state')).length, 3);
  const states = r.groups.filter((g) => g.template.includes('node: state'));
  t.is(states.length, 1, templates.join('\n'));
  t.regex(states[0]!.template, /node: state <[a-z]+\|[a-z]+\|[a-z]+>/);
  t.deepEqual(states[0]!.values?.find((v) => v.placeholder.includes('<…>'))?.values.map((v) => v.value).sort(), ['boot', 'halt', 'wait']);
  // The merge is decided on the final groups: chunking and workers do not change it.
  t.deepEqual(await condense(text, { chunkBytes: 500, workers: 2 }), r);
});

test('precursors: the TLS warning that comes before every ConnectionReset on its trace is found; nothing is claimed for an error that follows nothing in particular', async (t) => {
  const { text, resets, unrelated } = tlsIncidentLog();
  const r = await condense(text);
  const reset = find(r, 'ConnectionReset')!;
  t.is(reset.count, resets);
  t.truthy(reset.precursor, 'a precursor is reported');
  t.regex(reset.precursor!.template, /cipher downgrade, renegotiating TLS/);
  t.is(reset.precursor!.count, resets);
  t.is(reset.precursor!.of, resets);
  t.true(reset.precursor!.sameTrace);
  const billing = find(r, 'invoice rounding mismatch')!;
  t.is(billing.count, unrelated);
  t.is(billing.precursor, undefined, JSON.stringify(billing.precursor));
  // Pairs that cross chunk boundaries are resolved by the merger: any chunking, one answer.
  t.deepEqual(await condense(text, { chunkBytes: 300, workers: 2 }), r);
});

/** A service's log: three kinds of line that recur to its last line. */
function recurringService(lines: number): string {
  let out = '';
  for (let i = 0; i < lines; i++) {
    const stamp = `2025-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;
    out += [`${stamp} INFO handled job ${i} in ${i % 97} ms`, `${stamp} WARN retrying job ${i} (attempt ${i % 4})`, `${stamp} INFO cache hit ratio ${i % 100}%`][i % 3] + '\n';
  }
  return out;
}

test('without a level, `could not`, `invalid` and a death by signal are an error and a crash', async (t) => {
  const text = ['chown: invalid group: \'acme:acme-metrics\'', 'Could not find a package configuration file provided by "OpenEXR"', 'worker 7 was terminated by signal 9', 'job runner crashed while reading queue'];
  const r = await condense(`${recurringService(300)}${text.join('\n')}\n${recurringService(30)}`, { top: 30 });
  t.is(find(r, 'invalid group')!.severity, 'error');
  t.is(find(r, 'Could not find a package')!.severity, 'error');
  t.is(find(r, 'terminated by signal')!.severity, 'critical');
  t.is(find(r, 'job runner crashed')!.severity, 'critical');
});

test('a located complaint after a timestamp is an error: named\'s zone loader names the file and line it stopped at', async (t) => {
  let log = '';
  for (let i = 0; i < 60; i++) log += `03-Dec-2026 17:14:00.${String(100 + i)} zone shop${i}.example/IN: loaded serial ${2026120300 + i}\n`;
  log += '03-Dec-2026 17:14:00.803 dns_master_load: /srv/zones/db.shop87.example:7: www.shop87.example: CNAME and other data\n';
  log += '03-Dec-2026 17:14:00.804 dns_master_load: /srv/zones/db.shop88.example:3: ignoring out-of-zone data (warning)\n';
  const r = await condense(log, { top: 30 });
  t.is(r.format, 'timestamped log');
  t.is(find(r, 'CNAME and other data')!.severity, 'error');
  t.is(find(r, 'ignoring out-of-zone data')!.severity, 'warning');
  t.is(find(r, 'loaded serial')!.severity, 'info');
});

test('a position and a message, no column, no level: a checker\'s finding is a warning; a trace\'s location is not one', async (t) => {
  const lines = ['pre-commit: running config lint', 'settings.ini:1: timeout must be <= 50 (policy OPS-12)', '/usr/lib/python3/dist-packages/cfg.py:12: DeprecationWarning: load() without Loader is deprecated', 'rules.yaml:4: error: unknown key "retires"', 'pricing.py:27: KeyError', 'tests/test_x.py:36: in test_total'];
  const r = await condense(`${recurringService(300)}${lines.join('\n')}\n${recurringService(30)}`, { top: 40 });
  t.is(find(r, 'timeout must be')!.severity, 'warning');
  t.is(find(r, 'DeprecationWarning')!.severity, 'warning');
  t.is(find(r, 'unknown key')!.severity, 'error');
  t.not(find(r, 'in test_total')?.severity, 'warning');
  t.not(find(r, 'pricing.py')?.severity, 'warning');
});

test('in the text, a group of one record shows that record, not its template as well; a group of many shows both', async (t) => {
  const r = await condense(`${recurringService(300)}2025-01-01T01:00:00Z ERROR payment 4711 declined by gateway gw-3\n`, { top: 30 });
  const text = renderLogText(r, 100_000);
  const once = find(r, 'declined by gateway')!;
  t.is(once.count, 1);
  t.false(text.includes(`  ${once.template}\n`), 'the template of a one-record group');
  t.true(text.includes('e.g. 2025-01-01T01:00:00Z ERROR payment 4711 declined by gateway gw-3'));
  const many = find(r, 'handled job')!;
  t.true(text.includes(`  ${many.template}\n`), many.template);
});

test("the input's own ending is shown from its first line: a report with no level word after a service's log; a log that ends as it went on shows its last ten, as tail does", async (t) => {
  // As tclsh prints an error: no timestamp, no level, a dozen lines.
  const report = ['expected integer but got "3O"', '    (reading increment)', '    invoked from within', '"incr until $days"', '    (procedure "keep_until" line 3)', '    invoked from within', '"keep_until $days 340"', '    ("dict for" body line 2)', '    invoked from within', '"dict for {name days} $table {', '    puts "$name keeps $days days"', '}"', '    (file "rotate.tcl" line 18)'];
  const service = recurringService(900);
  const text = `${service}${report.join('\n')}\n`;
  const r = await condense(text, { top: 30 });
  // With the two lines before it: what the service was doing.
  t.deepEqual(r.read.tail?.map((l) => l.text), [...service.trimEnd().split('\n').slice(-2), ...report]);
  t.is(r.read.tail?.[2]?.line, 901);
  t.deepEqual(await condense(text, { top: 30, workers: 2, chunkBytes: 3000 }), r, 'the same ending whatever the chunks');
  const screen = renderLogText(r, 10_000).slice(0, 4096);
  t.true(screen.includes('901| expected integer but got "3O"'), screen);
  // Ending as it went on: the recurring lines reach the last one.
  const routine = await condense(recurringService(903), { top: 30 });
  t.is(routine.read.tail?.length, TAIL_LINES);
  // No body to end: a tool's output alone, every line of it one-off (a sanitizer's legend).
  const words = 'shadow byte legend addressable partially heap left redzone freed region stack mid right after return scope global init order poisoned user container overflow array cookie intra object internal alloca'.split(' ');
  const oneOff = await condense(`${Array.from({ length: 14 }, (_, i) => words.slice(i, i + 1 + i).join(' ')).join('\n')}\n`, { top: 30 });
  t.true(oneOff.groups.every((g) => g.count < 5), 'every group one-off');
  t.is(oneOff.read.tail?.length, TAIL_LINES);
  // A report of long lines (an ending: one group, begun after the body): as many of its
  // last lines as fit the ending's bytes, more than tail's ten; of very long ones, ALWAYS_LINES.
  const printed = (l: string): number => Math.min(l.length, 300) + 8;
  for (const width of [100, 290]) {
    const long = Array.from({ length: 20 }, (_, i) => `step ${i} ${'x'.repeat(width)}`);
    const shown = (await condense(`${service}${long.join('\n')}\n`, { top: 30 })).read.tail?.map((l) => l.text) ?? [];
    t.deepEqual(shown, long.slice(long.length - shown.length), `lines of ${width}`);
    const bytes = shown.reduce((n, l) => n + printed(l), 0);
    if (width === 290) t.is(shown.length, ALWAYS_LINES);
    else t.true(shown.length > TAIL_LINES && bytes <= ENDING_BYTES && bytes + printed(long[long.length - shown.length - 1]!) > ENDING_BYTES, String(shown.length));
  }
});

test('a failure followed by the service\'s routine run: the ending before the run is shown, the run\'s last lines after a counted gap; a service\'s own recurring errors are routine', async (t) => {
  const lines = recurringService(920).trimEnd().split('\n');
  // What a backup script's tools print between the service's lines: no level word, no stamp.
  const failure = ["cp: cannot create regular file '/mnt/backup/nightly/': No such file or directory", 'run.sh: line 14: rsync: command not found', 'gzip: /srv/db/table1.csv: not in gzip format'];
  const text = `${[...lines.slice(0, 900), ...failure, ...lines.slice(900)].join('\n')}\n`;
  const r = await condense(text, { top: 30 });
  const tail = r.read.tail ?? [];
  const texts = tail.map((l) => l.text);
  t.deepEqual(texts.slice(-QUIET_KEPT), lines.slice(-QUIET_KEPT), 'the input\'s very end');
  t.deepEqual(texts.slice(-QUIET_KEPT - failure.length, -QUIET_KEPT), failure, 'the failure, right before the gap');
  t.is(tail[tail.length - QUIET_KEPT]!.line - tail[tail.length - QUIET_KEPT - 1]!.line - 1, 20 - QUIET_KEPT);
  // Said in the JSON too: what the model reads of --json or a partial is the same boundary.
  t.deepEqual(r.read.tailLeftOut, { afterLine: 903, lines: 20 - QUIET_KEPT });
  t.deepEqual(await condense(text, { top: 30, workers: 2, chunkBytes: 3000 }), r, 'the same ending whatever the chunks');
  const screen = renderLogText(r, 10_000).slice(0, 4096);
  t.true(screen.includes('the routine run they end with left out:') && screen.includes(`(${20 - QUIET_KEPT} more lines, routine: groups that recur all along)`), screen);
  for (const f of failure) t.true(screen.includes(f), f);
  // Ranked as what they are: a located complaint is an error though it names no level.
  t.deepEqual(failure.map((f) => find(r, f.slice(0, 12))?.severity), ['error', 'error', 'error']);
  // However long the run (up to what reading keeps): a supervisor's heartbeats for 150 lines.
  const long = recurringService(1050).trimEnd().split('\n');
  const longText = `${[...long.slice(0, 900), ...failure, ...long.slice(900)].join('\n')}\n`;
  const longTail = (await condense(longText, { top: 30, workers: 2, chunkBytes: 5000 })).read;
  t.deepEqual(longTail.tailLeftOut, { afterLine: 903, lines: 150 - QUIET_KEPT });
  t.deepEqual(longTail.tail?.slice(-QUIET_KEPT - failure.length, -QUIET_KEPT).map((l) => l.text), failure);
  // A service whose own errors recur to the end (log show's stream): no gap, tail's ten.
  const erring = lines.map((l, i) => (i % 25 === 0 ? l.replace(/INFO|WARN/, 'ERROR') : l));
  const routine = await condense(`${erring.join('\n')}\n`, { top: 30 });
  t.is(routine.read.tail?.length, TAIL_LINES);
  t.is(routine.read.tailLeftOut, undefined);
  t.true(renderLogText(routine, 10_000).includes('last lines, as tail shows them:'));
});

/** Each line, printed between two runs of `service` (60 lines), reads at its severity. */
async function readsAs(t: ExecutionContext, service: string, lines: [string, SeverityName][]): Promise<void> {
  for (const [line, severity] of lines) {
    const r = await condense(`${service}${line}\n${service}`, { top: 30 });
    t.is(r.groups.find((x) => x.firstLine === 61)?.severity, severity, line);
  }
}

test('a located complaint opens an error record, a warning when it says so, worse when its words say worse; a debug trace and a location alone are not complaints', async (t) => {
  const service = recurringService(60);
  const lines: [string, SeverityName][] = [
    ['deploy.sh: line 7: cfg: command not found', 'error'],
    ['sed: fix.sed:2: unknown command: `q\'', 'error'],
    ['gawk: file tally.awk line 3: warning: regexp escape sequence `\\.\' is not a known regexp operator', 'warning'],
    ['tar: /srv/archive.tar: Cannot open: No such file or directory', 'error'],
    ["main.c:(.text+0x1e): undefined reference to `compute_total'", 'error'],
    ['run.sh: line 9:  4242 Segmentation fault      ./worker', 'critical'],
    ['Use of uninitialized value $amount in concatenation (.) or string at report.pl line 7.', 'warning'],
    ['Modification of non-creatable array value attempted, subscript -7 at /srv/report.pl line 13, <STDIN> line 4.', 'warning'],
    ["Can't open /etc/app.conf: No such file or directory at load.pl line 9.", 'error'],
    ['debug1: /etc/ssh/ssh_config line 19: Applying options for *', 'info'],
    ['Reading: /etc/app/conf.d: done', 'info'],
    ["/usr/bin/ld: /tmp/ccqbSkRe.o: in function `main':", 'error'],
    ['/bin/sh: 1: helmfile: not found', 'error'],
    ['help: consider using `Option::expect` to unwrap the value, panicking if it is `None`', 'notice'],
    ['npm silly placeDep ROOT es-errors@1.3.0 OK for: get-intrinsic@1.2.4', 'info'],
    ['rootdir: /tmp/project', 'info'],
  ];
  await readsAs(t, service, lines);
});

test('the system\'s and Go\'s error strings are errors where no level is declared; a setting that names a timeout is not; a warning\'s class names it; the shell\'s resource-limit signals are critical', async (t) => {
  const service = recurringService(60);
  const lines: [string, SeverityName][] = [
    ['2026/12/06 11:33:10.036323 listen tcp 127.0.0.1:18089: bind: address already in use', 'error'],
    ['2026/12/06 11:32:16.932657 feed-sync: partner-eu: Get "http://127.0.0.1:42477/feeds/partner-eu": context deadline exceeded', 'error'],
    ['dial tcp: lookup db.internal on 127.0.0.53:53: no such host', 'error'],
    ['read tcp 10.0.0.4:5432->10.0.0.9:41012: i/o timeout', 'error'],
    ['x509: certificate signed by unknown authority', 'error'],
    ['write /var/spool/out.bin: No space left on device (os error 28)', 'error'],
    ['upload failed halfway: connection reset by peer', 'error'],
    ['request timeout set to 30s for upstream api', 'info'],
    ['(node:9316) MaxListenersExceededWarning: Possible EventEmitter memory leak detected. 11 config listeners added to [EventEmitter]', 'warning'],
    ["thread 'rule-parser' (7221) has overflowed its stack", 'critical'],
    ["terminate called after throwing an instance of 'std::runtime_error'", 'critical'],
    // bash names the signal that ended a job, its command glued on where the name is long.
    ['./backup.sh: line 9: 26139 File size limit exceededsqlite3 $DB ".dump $t" > "$OUT/$t.sql"', 'critical'],
    ['./crunch.sh: line 4:  7120 CPU time limit exceeded (core dumped) ./crunch', 'critical'],
    ['gzip: stdin: unexpected end of file', 'error'],
  ];
  await readsAs(t, service, lines);
  // anyhow's report: its chain under a bare `Caused by:` after a blank line stays with the error, shown.
  const anyhow = 'Error: failed to start admin server\n\nCaused by:\n    0: bind admin listener on 127.0.0.1:37991\n    1: Address already in use (os error 98)\n';
  const r = await condense(`${service}${anyhow}${service}`, { top: 30 });
  const g = r.groups.find((x) => x.firstLine === 61)!;
  t.is(g.lines, 5);
  t.true(g.exampleMore.includes('    1: Address already in use (os error 98)'), JSON.stringify(g.exampleMore));
});

test('a Go panic that net/http recovered and logged shows the program\'s own frame, not the standard library\'s', async (t) => {
  // As net/http logs a handler's panic (go 1.19), between an access log's lines.
  const trace = [
    '2026/12/06 11:26:47.342689 http: panic serving 127.0.0.1:50508: runtime error: invalid memory address or nil pointer dereference',
    'goroutine 18 [running]:',
    'net/http.(*conn).serve.func1()',
    '\t/usr/lib/go-1.19/src/net/http/server.go:1850 +0xbf',
    'panic({0x680160, 0x8c2100})',
    '\t/usr/lib/go-1.19/src/runtime/panic.go:890 +0x262',
    'main.discountFor(...)',
    '\t/srv/quote/main.go:30',
    'main.quoteHandler({0x740f20?, 0xc000134c40}, 0xc00014a800)',
    '\t/srv/quote/main.go:40 +0x14e',
    'net/http.HandlerFunc.ServeHTTP(0xc00008daf0?, {0x740f20?, 0xc000134c40?}, 0x0?)',
    '\t/usr/lib/go-1.19/src/net/http/server.go:2109 +0x2f',
    'created by net/http.(*Server).Serve',
    '\t/usr/lib/go-1.19/src/net/http/server.go:3102 +0x4db',
  ].join('\n');
  const access = Array.from({ length: 40 }, (_, i) => `2026/12/06 11:26:47.3${String(i).padStart(5, '0')} access method=GET path=/quote?customer=${i} dur=${i * 7}µs`).join('\n');
  const r = await condense(`${access}\n${trace}\n${access}\n`);
  const g = find(r, 'panic serving')!;
  t.true(g.exampleMore.includes('main.discountFor(...)'), JSON.stringify(g.exampleMore));
  t.false(g.exampleMore.includes('net/http.(*conn).serve.func1()'), JSON.stringify(g.exampleMore));
});

test('node\'s uncaught error whose source line stands at column 0 is one record from its file and line to its frames', async (t) => {
  const crash = [
    '/srv/authz/roles.js:4',
    'function perms(role) { return [role, ...roles[role].flatMap(perms)]; }',
    '              ^',
    '',
    'RangeError: Maximum call stack size exceeded',
    '    at perms (/srv/authz/roles.js:4:15)',
    '    at Array.flatMap (<anonymous>)',
    '    at perms (/srv/authz/roles.js:4:53)',
    '',
    'Node.js v20.20.2',
  ].join('\n');
  const access = Array.from({ length: 40 }, (_, i) => `2026-12-06T11:28:27.${String(i).padStart(3, '0')}Z INFO authz: request ${i} role=viewer perms=1`).join('\n');
  const r = await condense(`${access}\n${crash}\n${access}\n`);
  const g = find(r, '/srv/authz/roles.js:<NUM>')!;
  t.is(g.severity, 'error');
  t.is(g.firstLine, 41);
  t.true(g.exampleMore.includes('RangeError: Maximum call stack size exceeded'), JSON.stringify(g.exampleMore));
  t.falsy(r.groups.find((x) => x.template.startsWith('function perms')), 'the source line is no record of its own');
  // A path and line alone that no script names stay a line of their own.
  const other = await condense(`${access}\n/etc/app/limits.conf:4\nmax_open = 10\n${access}\n`);
  t.truthy(find(other, 'max_open'));
});

test('node\'s out-of-memory report keeps its native stack, frames from the tenth on included, with its fatal error', async (t) => {
  const frames = Array.from({ length: 17 }, (_, i) => `${String(i + 1).padStart(2)}: 0x${(0xb78db3 + i * 4099).toString(16)} node::Frame${i}(v8::Isolate*) [node]`);
  const report = ['FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', '----- Native stack trace -----', '', ...frames].join('\n');
  const service = recurringService(60);
  const r = await condense(`${service}${report}\n${service}`, { top: 30 });
  const g = r.groups.find((x) => x.firstLine === 61)!;
  t.is(g.severity, 'critical');
  t.is(g.lines, 3 + frames.length);
  t.false(r.groups.some((x) => /^\d+: 0x/.test(x.template) || x.template.startsWith('-----')), r.groups.map((x) => x.template).join('\n'));
});

test("valgrind's line that says where an invalid access fell is shown with the access", async (t) => {
  const report = ['==22147== Invalid read of size 4', '==22147==    at 0x109201: ring_sum (ring.c:20)', '==22147==    by 0x109245: main (ring.c:27)', "==22147==  Address 0x4a400b0 is 0 bytes after a block of size 32 alloc'd", '==22147==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)', '==22147==    by 0x109182: ring_new (ring.c:11)', '==22147==    by 0x10922C: main (ring.c:25)', '==22147== '];
  const r = await condense(`${recurringService(300)}${report.join('\n')}\n${recurringService(300)}`, { top: 30 });
  const g = find(r, 'Invalid read of size')!;
  t.is(g.severity, 'error');
  t.true(g.exampleMore.includes(report[3]!), JSON.stringify(g.exampleMore));
});

test("Ruby's Logger (the level's letter, then the time in brackets with the pid), a header written with bars and logfmt's time key (slog, logrus) are timestamped logs with a level column", async (t) => {
  const levels = ['INFO', 'WARN', 'ERROR', 'DEBUG'] as const;
  let ruby = '';
  let bars = '';
  let slog = '';
  let logrus = '';
  for (let i = 0; i < 40; i++) {
    const level = levels[i % 4]!;
    const stamp = `2024-06-03T09:00:${String(i).padStart(2, '0')}.${String(100000 + i)}`;
    ruby += `${level[0]}, [${stamp} #23933] ${level.padStart(5)} -- cache-svc: served key=sess:${i * 7} in ${i}ms\n`;
    bars += `2024-06-03 07:33:${String(i).padStart(2, '0')},745|${level}|scheduler|cache stats hits=${i * 31}\n`;
    // logfmt's time key: Go's log/slog text handler, logrus (its time quoted).
    slog += `time=2024-06-03T09:00:${String(i).padStart(2, '0')}.441969837Z level=${level} msg="cache stats" hits=${i * 31}\n`;
    logrus += `time="2024-06-03T09:00:${String(i).padStart(2, '0')}Z" level=${level.toLowerCase()} msg="cache stats" hits=${i * 31}\n`;
  }
  for (const [name, text] of [['ruby', ruby], ['bars', bars], ['slog', slog], ['logrus', logrus]] as const) {
    const r = await condense(`${text}dd: error writing '/dev/full': No space left on device\n`, { top: 30 });
    t.is(r.format, 'timestamped log', name);
    t.deepEqual({ ...r.linesBySeverity }, { critical: 0, error: 11, warning: 10, notice: 0, info: 10, debug: 10 }, name);
    for (const g of r.groups.filter((x) => !x.template.startsWith('dd:'))) {
      t.true(g.firstTime !== null && /^(?:(?:level=)?(?:INFO|WARN|ERROR|DEBUG|info|warn|error|debug))\b/.test(g.template.trimStart()), `${name}: ${g.template}`);
    }
  }
});

test("the last lines are numbered as the groups are, when the input ends with blank lines or a line of terminal colours alone", async (t) => {
  const body = `${recurringService(300)}2025-01-01T01:00:00Z ERROR final failure xyz\n`;
  for (const end of ['\n\n', '\x1b[0m\x1b[0m', '\x1b[0m\n', '']) {
    const r = await condense(body + end, { top: 30 });
    const failure = find(r, 'final failure')!;
    const shown = r.read.tail?.find((l) => l.text.includes('final failure'));
    t.is(shown?.line, failure.firstLine, JSON.stringify(end));
    t.is(failure.firstLine, 301);
  }
});

test("where a compiler's diagnostic points (rustc's `-->` line) is shown under it, the first place only", async (t) => {
  const diagnostic = ['error[E0308]: mismatched types', '  --> billing/src/lib.rs:4:28', '   |', '4  |     let total: u64 = prices.get(0);', '   |                ---   ^^^^^^^^^^^^^^ expected `u64`, found `Option<&u64>`', '   |', '  ::: /rustc/library/core/src/slice/mod.rs:1:1', '  --> billing/src/other.rs:9:1', ''];
  const r = await condense(`${recurringService(200)}${diagnostic.join('\n')}\n${recurringService(30)}`, { top: 30 });
  const g = find(r, 'mismatched types')!;
  t.true(g.exampleMore.includes(diagnostic[1]!), JSON.stringify(g.exampleMore));
  t.false(g.exampleMore.includes(diagnostic[7]!), JSON.stringify(g.exampleMore));
});

test("a JSON record's example in the text has its stack cut to the first line, so the fields after it show; --json keeps it whole", async (t) => {
  const stack = 'TypeError: Cannot read properties of undefined (reading \'amount\')\n    at total (/srv/app/server.js:7:42)\n    at Server.<anonymous> (/srv/app/server.js:20:24)\n    at Server.emit (node:events:524:28)';
  let text = '';
  for (let i = 0; i < 50; i++) text += `${JSON.stringify({ level: 30, time: 1796285769000 + i, msg: 'incoming request', reqId: `req-${i}` })}\n`;
  const failing = JSON.stringify({ level: 50, time: 1796285769597, reqId: 'req-3e', err: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'amount')", stack: `${stack}${'\n    at x (/srv/app/lib.js:1:1)'.repeat(6)}` }, cartId: 'c317', msg: 'failed to compute cart total' });
  const r = await condense(`${text}${failing}\n${text}`, { top: 30 });
  const g = find(r, 'failed to compute cart total')!;
  t.is(g.example, failing);
  const screen = renderLogText(r, 10_000);
  t.true(screen.includes('(9 more lines)"},"cartId":"c317"'), screen);
});

test("docker compose's output: each line's service prefix is read past, so a service's traceback is one record and its lines' times are found", async (t) => {
  let text = 'Attaching to api-1, worker-1\n';
  for (let i = 0; i < 300; i++) {
    const stamp = `2026-12-03T08:18:${String(i % 60).padStart(2, '0')}.${String(100 + i)}Z`;
    text += i % 2 === 0 ? `api-1     | ${stamp} [api] GET /orders/${1000 + i} 200 ${i % 40}ms\n` : `worker-1  | ${stamp.replace('T', ' ').replace('Z', '')} INFO worker: order ${i} labelled\n`;
  }
  const traceback = ['worker-1  | Traceback (most recent call last):', 'worker-1  |   File "/app/worker.py", line 13, in <module>', 'worker-1  |     label = ship(order)', 'worker-1  |   File "/app/worker.py", line 6, in ship', "worker-1  |     addr = order['shipping_address']", "worker-1  | KeyError: 'shipping_address'"];
  text += `${traceback.join('\n')}\nworker-1 exited with code 1\n${text.split('\n').slice(1, 40).join('\n')}\n`;
  const r = await condense(text, { top: 30 });
  t.is(r.format, 'timestamped log');
  const g = find(r, 'Traceback (most recent call last)')!;
  t.is(g.severity, 'error');
  t.is(g.lines, traceback.length, 'the traceback is one record');
  t.true(g.exampleMore.includes(traceback[5]!), JSON.stringify(g.exampleMore));
  t.true(find(r, 'GET /orders')!.firstTime !== null);
  t.deepEqual(await condense(text, { top: 30, workers: 2, chunkBytes: 2000 }), r, 'the same whatever the chunks');
  // A service's level column behind its name is found though a traceback's frames stand
  // behind the same name: its WARNING lines stay warnings whatever their words say.
  const celery = (i: number, level: string, message: string): string => `worker-1        | [2026-12-03 08:18:${String(i).padStart(2, '0')},479: ${level}/ForkPoolWorker-${i % 4}] ${message}`;
  const worker = [
    ...Array.from({ length: 2 }, (_, i) => celery(i, 'INFO', `Task tasks.export[${1000 + i}] received`)),
    celery(6, 'WARNING', 'Timeout: 60'),
    celery(7, 'WARNING', 'Timeout: 30'),
    celery(8, 'ERROR', 'Task handler raised error: TimeLimitExceeded(5)'),
    ...traceback.map((l) => l.replace('worker-1  |', 'worker-1        |')),
    celery(9, 'INFO', 'Task tasks.export[1009] succeeded in 3.0s: None'),
  ].join('\n');
  const levels = await condense(`${worker}\n`, { top: 30 });
  t.is(find(levels, 'Timeout: <NUM>')?.severity, 'warning', JSON.stringify(levels.groups.map((g) => [g.severity, g.template])));
  t.is(find(levels, 'Traceback (most recent call last)')?.severity, 'error');
  // A log where only a few lines start with a word and a bar is no compose output.
  const some = `${recurringService(200)}INFO | a table row\nname | value\n`;
  t.is((await condense(some, { top: 30 })).format, 'timestamped log');
  t.is(find(await condense(some, { top: 30 }), 'handled job')!.template.startsWith('INFO'), true);
});

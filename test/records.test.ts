/**
 * Records as real logs have them: where a record starts, what its severity is when the
 * log has a level column, what a multi-line record shows, JSON logs' error fields, log
 * show's JSON styles, a crash report among other files, small inputs shown whole.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { condenseLog } from '../src/log/index.js';
import { renderLogText } from '../src/log/render/log-text.js';
import { fileSource } from '../src/input/sources.js';
import { ips309Crash } from '../fixtures/crash.js';
import { javaServiceLog, mixedLog, plainSyslog } from '../fixtures/logs.js';
import { seededRandom } from '../fixtures/random.js';
import { ROOT, tempDir, writeTemp } from './helpers.js';
import { asLog, condense, find } from './condense-helpers.js';
import type { LogResult } from '../src/log/model/result.js';

const REAL = join(ROOT, 'fixtures', 'real', 'out');
const real = (name: string): string => readFileSync(join(REAL, name), 'utf8');

test('real tools\' outputs, one after another: the same records for any worker count and chunk size', async (t) => {
  const files = ['go-nil-panic.log', 'python-chained.log', 'java-cause-chain.log', 'mocha-fail.log', 'node-test-fail.log', 'rust-panic.log', 'pytest-fail.log', 'jest-fail.log', 'valgrind-memcheck.log', 'asan-use-after-free.log', 'cargo-build-fail.log', 'tsan-data-race.log', 'go-data-race.log', 'shellcheck-findings.log', 'gtest-fail.log', 'tcl-error.log', 'doctest-fail.log', 'gpp-template.log', 'python-pool.log', 'make-recipe-fail.log', 'shell-killed.log', 'c-segfault.log', 'node-assert-diff.log', 'tape-fail.log', 'cppcheck-findings.log', 'php-uncaught.log', 'postgres-fk.log', 'java-jul.log', 'ruby-logger-cause.log', 'nginx-upstream-down.log', 'pylint-findings.log', 'redis-crash.log', 'erlang-crash.log', 'latex-undefined.log', 'python-threads.log', 'java-threads.log', 'python-pool-logged.log', 'python-custom-exception.log', 'python-buffered-stdout.log', 'pytest-native-diff.log', 'python-exception-group.log', 'python-orders-worker.log', 'python-thread-hooks.log', 'go-http-panic.log', 'eslint-color.log', 'tsc-pretty.log', 'jvm-crash.log', 'npm-install-eresolve.log'];
  const text = files.map(real).join('') + javaServiceLog(500) + files.map(real).join('');
  const reference = JSON.stringify(await condense(text));
  for (const options of [
    { workers: 2, chunkBytes: 1 },
    { workers: 1, chunkBytes: 333 },
    { workers: 3, chunkBytes: 4096 },
    { workers: 0, chunkBytes: 50_000 },
  ]) {
    t.is(JSON.stringify(await condense(text, options)), reference, JSON.stringify(options));
  }
});

test('an exception that ends a trace printed into another thread\'s routine record is an error record of its own; under a warning or a Java exception line it stays', async (t) => {
  const head = (n: number, level: string, message: string): string => `2026-12-06 02:06:25,8${n}0 [worker-${n}] ${level} ${message}`;
  // Python's threading excepthook printed in pieces: the frames and the exception land under another thread's INFO line.
  const interleaved = [
    head(1, 'INFO', 'validated cart for order 110'),
    'Traceback (most recent call last):',
    head(2, 'INFO', 'reserved stock for order 211'),
    '  File "/srv/shop.py", line 24, in worker',
    '    total = sum(PRICES[item] for item in BASKET)',
    "KeyError: 'banana'",
    head(3, 'INFO', 'charged card for order 312'),
  ].join('\n');
  const r = await condense(`${interleaved}\n`);
  const error = find(r, "KeyError: 'banana'");
  t.is(error?.severity, 'error');
  t.is(error?.count, 1);
  t.is(r.groups[0]!.severity, 'error');
  // A warning's or an error's trace is its own, the exception included: it names the warning's root.
  const warned = await condense(`${interleaved.replace('[worker-2] INFO', '[worker-2] WARNING')}\n`);
  const headed = (r: typeof warned, start: string) => r.groups.filter((g) => g.template.startsWith(start));
  t.deepEqual(headed(warned, 'KeyError'), [], 'no record of its own under a warning');
  t.is(find(warned, "KeyError: 'banana'")?.severity, 'warning');
  // Java prints the exception before its frames: under an INFO line that announces it, it is that record's, as before.
  const java = await condense(
    [head(1, 'INFO', 'retrying after:'), 'java.lang.IllegalStateException: pool closed', '\tat com.shop.Pool.take(Pool.java:41)', head(2, 'INFO', 'done')].join('\n') + '\n',
  );
  t.deepEqual(headed(java, 'java.lang'), []);
  t.is(find(java, 'IllegalStateException')?.severity, 'info');
});

test('a JVM throwable whose class names no Exception or Error (`com.shop.db.Pool$Exhausted: ...`) stays with the line that logged it', async (t) => {
  const head = (n: number, level: string, message: string): string => `2026-12-06 12:18:08.${n}00 ${level} 4711 --- [exec-${n}] o.a.c.c.C.[dispatcherServlet] : ${message}`;
  const lines: string[] = [];
  for (let n = 1; n <= 3; n++) {
    lines.push(head(n, 'ERROR', 'Servlet.service() threw exception with root cause'), `com.shop.db.Pool$Exhausted: no connection within ${n}000ms`, '\tat com.shop.db.Pool.take(Pool.java:41)', head(n, 'INFO', `GET /orders/${n} 500`));
  }
  const r = await condense(`${lines.join('\n')}\n`);
  t.deepEqual(r.groups.filter((g) => g.template.startsWith('com.shop')), [], 'no record of its own');
  const logged = find(r, 'Servlet.service()')!;
  t.is(logged.count, 3);
  t.is(logged.lines, 9);
  t.true(logged.exampleMore.some((l) => l.startsWith('com.shop.db.Pool$Exhausted: no connection')), logged.exampleMore.join('\n'));
  // Prose after a timestamped line is not taken for one: a capitalised word, or a single package level.
  const prose = await condense(`${head(1, 'ERROR', 'payment failed')}\nSee: the runbook\n${head(2, 'ERROR', 'payment failed')}\nmain.Config: reloaded\n`);
  t.is(find(prose, 'payment failed')!.lines, 2, 'two records of one line each');
  t.truthy(find(prose, 'See: the runbook'));
  t.truthy(find(prose, 'main.Config: reloaded'));
  // Opening a record of its own, such a line has its words' level: its name says nothing of trouble.
  const printed = await condense('starting\ncom.example.store.Boot: module config started\ncom.example.store.Pool: connection refused by 10.0.0.7\n');
  t.is(find(printed, 'module config started')?.severity, 'info');
  t.is(find(printed, 'connection refused')?.severity, 'error');
});

test('a header whose message is not there takes the lines below as its message: Spring Boot\'s failure analysis is one error record, for any chunking', async (t) => {
  // As Spring Boot 3 prints it (LoggingFailureAnalysisReporter logs a message that begins with a newline).
  const at = (ms: number, level: string, logger: string, message: string): string => `2026-12-06T12:16:31.${String(ms).padStart(3, '0')}Z ${level.padStart(5)} 812 --- [           main] ${logger} : ${message}`;
  const banner = ['', '***************************', 'APPLICATION FAILED TO START', '***************************', '', 'Description:', '', 'Web server failed to start. Port 42325 was already in use.', '', 'Action:', '', "Identify and stop the process that's listening on port 42325 or configure this application to listen on another port.", ''];
  const lines = [
    ...Array.from({ length: 30 }, (_, i) => at(i, 'INFO', 'o.s.c.s.PostProcessorRegistrationDelegate', `Bean 'config${i}' of type [com.acme.Config${i}] is not eligible`)),
    at(500, 'ERROR', 'o.s.b.d.LoggingFailureAnalysisReporter', ''),
    ...banner,
    ...Array.from({ length: 30 }, (_, i) => at(600 + i, 'INFO', 'o.s.b.a.l.ConditionEvaluationReportLoggingListener', `condition ${i} evaluated: did not match`)),
  ];
  const text = `${lines.join('\n')}\n`;
  const r = await condense(text);
  const failure = r.groups[0]!;
  t.is(failure.severity, 'error');
  t.is(failure.count, 1);
  t.is(failure.firstLine, 31);
  t.is(failure.lines, 1 + banner.length);
  t.true(failure.exampleMore.includes('Web server failed to start. Port 42325 was already in use.'), failure.exampleMore.join('\n'));
  t.is(find(r, 'APPLICATION FAILED TO START'), undefined, 'no record of its own');
  t.is(r.groups.length, 3);
  const reference = JSON.stringify(r);
  for (const chunkBytes of [1, 97, 200, 333, 700, 4096]) t.is(JSON.stringify(await condense(text, { workers: 2, chunkBytes })), reference, `chunks of ${chunkBytes} bytes`);
});

test('what a header with no message takes below it: plain lines up to the next header, 40 at most; never another program\'s opener or traceback', async (t) => {
  const at = (n: number, level: string, message: string): string => `2026-12-06 10:00:${String(n).padStart(2, '0')},000 ${level} [report] - ${message}`;
  // logback's `%d %level [%logger] - %msg`, the message on the lines below.
  const below = await condense(`${at(1, 'WARN', '')}\nslow queries in the last hour:\n  orders_by_day 4.2 s\nAll done.\n${at(2, 'INFO', 'next')}\n`);
  t.is(find(below, 'WARN')!.lines, 4);
  t.is(find(below, 'All done.'), undefined);
  // A Go panic printed under it is the panic's record.
  const panic = await condense(`${at(1, 'INFO', '')}\nstats:\npanic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/srv/main.go:9 +0x1d\n`);
  t.is(find(panic, 'INFO')!.lines, 2);
  t.is(find(panic, 'panic: runtime error')?.severity, 'critical');
  // So is a traceback printed after an empty INFO line (a separator the program logs).
  const traceback = await condense(`${at(1, 'INFO', '')}\nTraceback (most recent call last):\n  File "/srv/job.py", line 3, in <module>\n    main()\nKeyError: 'broker_url'\n${at(2, 'INFO', 'next')}\n`);
  t.is(find(traceback, 'INFO')!.lines, 1);
  t.is(find(traceback, 'Traceback')?.severity, 'error');
  // And a plain line whose words say worse than the header's level.
  const worse = await condense(`${at(1, 'INFO', '')}\nbatch 7 of 9\ncould not connect to the broker\n${at(2, 'INFO', 'next')}\n`);
  t.is(find(worse, 'INFO')!.lines, 2);
  t.is(find(worse, 'could not connect')?.severity, 'error');
  // Past 40 lines below it, a plain line is a record again.
  const long = await condense(`${at(1, 'INFO', '')}\n${Array.from({ length: 45 }, (_, i) => `row ${i}`).join('\n')}\n`);
  t.is(find(long, 'INFO')!.lines, 41);
  // A message that ends in a colon is there: the lines below are records as before.
  const said = await condense(`${at(1, 'INFO', 'rows:')}\nAll done.\nfinished\n`);
  t.truthy(find(said, 'finished'));
});

test('Tcl\'s errorInfo under a service\'s timestamped lines is one record: each command quoted at column 0 after `while executing` or `invoked from within`', async (t) => {
  const rows = Array.from({ length: 20 }, (_, i) => `2026-12-06 12:15:52 INFO etl: row ${i} converted: 10.5`);
  const info = ['can\'t read "rates(GBP)": no such element in array', '    while executing', '"return $rates($cur) "', '    (procedure "rate" line 1)', '    invoked from within', '"parse_row "221,99.0,GBP""', '    (file "etl.tcl" line 6)'];
  const text = `${[...rows, ...info, '2026-12-06 12:15:53 INFO scheduler: etl exited with 0'].join('\n')}\n`;
  const r = await condense(text);
  const error = find(r, 'no such element in array')!;
  t.is(error.severity, 'error');
  t.is(error.lines, info.length);
  t.is(r.groups.filter((g) => g.template.startsWith('"')).length, 0, 'no command a record of its own');
  for (const chunkBytes of [1, 97, 700]) t.is(JSON.stringify(await condense(text, { workers: 2, chunkBytes })), JSON.stringify(r), `chunks of ${chunkBytes} bytes`);
});

test('node\'s unhandled \'error\' event after a blank `info:` line is one error record, from `node:events:N` to its last frame', async (t) => {
  const text = real('node-unhandled-error-event.log');
  const r = await condense(text);
  const lines = text.split('\n');
  const crash = r.groups.find((g) => g.template.includes('ECONNREFUSED'))!;
  t.is(crash.severity, 'error');
  t.is(crash.firstLine, lines.indexOf('node:events:502') + 1);
  // Its last line is the error's closing brace, or the blank line after it; node's version line is not its.
  t.true(crash.lastLine >= lines.indexOf('}') + 1 && crash.lastLine <= lines.findIndex((l) => l.startsWith('Node.js v')), String(crash.lastLine));
  t.true(crash.exampleMore.some((l) => l.startsWith('Error: connect ECONNREFUSED 127.0.0.1:')), crash.exampleMore.join('\n'));
  t.is(r.groups.filter((g) => g.severity === 'info' && g.template.includes('ECONNREFUSED')).length, 0, 'not under the blank info line');
  t.falsy(r.groups.find((g) => g.template.startsWith('Emitted')), 'where it was emitted is part of it');
  t.is(r.groups[0], crash);
});

test('a chained cause in a routine record that holds no exception of its own is another thread\'s: an error record of its own; where the record holds its exception, or under a warning, it stays', async (t) => {
  const line = (n: number, level: string, message: string): string => `2026-12-06T02:24:52.0${n}Z ${level} [consumer-${n}] ${message}`;
  // The JVM's stderr between other threads' stdout lines: frames, then the causes, under a DEBUG line.
  const trace = ['\tat Consumers$Schema.resolve(Consumers.java:50)', '\t... 3 more', 'Caused by: java.net.UnknownHostException: registry: Name or service not known', '\tat Consumers$Schema.fetch(Consumers.java:54)'];
  const log = (head: string, own: string[] = []): string => [line(1, 'INFO ', 'acked message offset=3'), head, ...own, ...trace, line(3, 'INFO ', 'acked message offset=4')].join('\n') + '\n';
  const cause = (r: LogResult) => r.groups.find((g) => g.template.includes('UnknownHostException'));
  const routine = await condense(log(line(2, 'DEBUG', 'deserialized OrderCreated v3 payload of 88 bytes')));
  t.is(cause(routine)?.severity, 'error');
  t.true(cause(routine)!.template.startsWith('Caused by: java.net.UnknownHostException'), cause(routine)!.template);
  t.is(cause(routine)?.lines, 2, 'the cause and its frame');
  t.is(find(routine, 'deserialized')?.lines, 3, 'the frames before the cause stay with the line they fell under');
  // The record's own exception, logged with it (`... failed:` announces it): its causes are its own.
  const own = await condense(log(line(2, 'DEBUG', 'decode failed:'), ['java.lang.IllegalStateException: bad payload']));
  t.is(cause(own)?.severity, 'debug');
  t.false(own.groups.some((g) => g.template.startsWith('Caused by')));
  const warned = await condense(log(line(2, 'WARN ', 'retrying transient error on partition 3')));
  t.is(cause(warned)?.severity, 'warning');
});

test('a failed step\'s report shows the line printed just before it, the step\'s last word, whatever its level; in text and JSON', async (t) => {
  const service = javaServiceLog(300);
  const r = await condense(service + real('make-recipe-fail.log'));
  const make = find(r, 'make: *** [Makefile:<NUM>: out/page<NUM>.html] Error <NUM>')!;
  t.is(make.printedBefore, "render.py: src/page17.md: front matter has no 'title' field");
  // The recipe's line says no level: it stays what it is, shown where make says the step failed.
  t.is(find(r, 'front matter has no')!.severity, 'info');
  t.true(renderLogText(r, 10_000).includes("  printed just before: render.py: src/page17.md: front matter has no 'title' field\n"));
  t.is(find(r, 'Target \'all\' not remade')!.printedBefore, undefined, 'a line that reports no exit status');

  // make's report of a sub-make's failure points to what the recipe printed, not to the sub-make's report.
  const nested = await condense(`${service}gen: no such locale pt_BR\nmake[1]: *** [Makefile:5: out/17.txt] Error 3\n\nmake: *** [Makefile:2: all] Error 2\n`);
  t.is(find(nested, 'make[<PID>]: ***')!.printedBefore, 'gen: no such locale pt_BR');
  t.is(find(nested, 'make: *** [Makefile:<NUM>: all]')!.printedBefore, 'gen: no such locale pt_BR');

  // A script's `exited with status N` and Go's `exit status N` alike; a line with the input's
  // header is a service's record among others', and the line before it is another's.
  const killed = await condense(service + real('shell-killed.log'));
  t.true(find(killed, 'import job exited with status')!.printedBefore?.includes('Killed'));
  const stamp = service.slice(0, service.indexOf(' '));
  const logged = await condense(`${service}${stamp} ERROR [main] c.e.Pool - worker 3 exited with code 1\n`);
  t.is(find(logged, 'exited with code')!.printedBefore, undefined);
  // Where the report is a chunk's first line, the line before still comes with it.
  for (const chunkBytes of [1, 64, 333]) {
    const chunked = await condense(service + real('make-recipe-fail.log'), { workers: 2, chunkBytes });
    t.is(find(chunked, 'make: *** [Makefile')!.printedBefore, make.printedBefore, `chunks of ${chunkBytes} bytes`);
  }
});

test('an assertion\'s diff is one record whatever its lines end with, its changed lines shown; a TAP block\'s values under their labels', async (t) => {
  const diff = await condense(real('node-assert-diff.log'));
  const report = find(diff, 'AssertionError [ERR_ASSERTION]')!;
  t.is(report.severity, 'error');
  for (const line of ['+       replicas: 0', '-       replicas: 2', "+         LOG_LEVEL: 'debug',", "-         LOG_LEVEL: 'info',"]) t.true(report.exampleMore.includes(line), line);
  // The diff's lines at column 0 (`-       replicas: 2` after a line that announces nothing, `...`) start no record of their own.
  t.deepEqual(diff.groups.filter((g) => /^(?:[-+] |\.\.\.)/.test(g.example)).map((g) => g.example), []);
  t.is(diff.groups.length, 3, diff.groups.map((g) => g.template).join('\n'));

  const tap = await condense(real('tape-fail.log'));
  const failed = find(tap, 'not ok <NUM> route for')!;
  const shown = failed.exampleMore.map((l) => l.trim());
  t.deepEqual(shown.slice(0, 4), ['expected: |-', "{ prefix: '/api/v2/users', name: 'users-v2' }", 'actual: |-', "{ prefix: '/api', name: 'api' }"]);
});

test('a checker\'s classes below a warning after a position (cppcheck\'s style:) are notices: its two errors come first', async (t) => {
  const r = await condense(real('cppcheck-findings.log'));
  t.is(find(r, 'can be declared as pointer to const')!.severity, 'notice');
  t.deepEqual(r.groups.slice(0, 2).map((g) => g.severity), ['error', 'error']);
  t.true(r.groups.slice(0, 2).some((g) => g.example.includes('Memory leak: buf')));
});

test('a linter\'s message code after a position says its class: pylint\'s conventions are notices, W a warning, E and F errors', async (t) => {
  const r = await condense(real('pylint-findings.log'));
  t.is(find(r, 'Missing function or method docstring')!.severity, 'notice');
  t.is(find(r, 'Unused import')!.severity, 'warning');
  t.deepEqual(r.groups.slice(0, 2).map((g) => g.severity), ['error', 'error']);
  const errors = r.groups.slice(0, 2).map((g) => g.example).join('\n');
  t.true(errors.includes("E1120: No value for argument 'd'") && errors.includes("E0602: Undefined variable 'place_order'"), errors);
  // The same forms, flake8's and ruff's spelling (no colon after the code), among other lines:
  // pycodestyle's layout codes (three digits, E1xx to E7xx) are notices, pyflakes' F errors.
  const lines = ['app/a.py:3:1: E302 expected 2 blank lines, found 1', 'app/a.py:9:80: W291 trailing whitespace', 'app/a.py:12:5: F821 undefined name \'cfg\'', 'app/a.py:14:1: C901 \'load\' is too complex (12)', 'app/a.py:20:1: R0913: Too many arguments (8/5) (too-many-arguments)'];
  const flake = await condense(`${lines.join('\n')}\n`.repeat(30));
  t.deepEqual(['blank lines, found', 'trailing whitespace', 'undefined name', 'is too complex', 'Too many arguments'].map((m) => find(flake, m)?.severity), ['notice', 'warning', 'error', 'notice', 'notice']);
});

test('a Redis log\'s `pid:role` before its time is header: its lines are timestamped records; `crashed by signal` is critical', async (t) => {
  const r = await condense(real('redis-crash.log'));
  t.is(r.format, 'plain text', 'its bug report is mostly lines without the header');
  t.true(r.groups[0]!.example.includes('Redis 7.0.15 crashed by signal: 11'), r.groups[0]!.example);
  t.is(r.groups[0]!.severity, 'critical');
  t.truthy(r.groups[0]!.firstTime);
  let log = '';
  for (let i = 0; i < 40; i++) log += `24506:S 03 Dec 2026 15:58:${String(10 + i).padStart(2, '0')}.497 * Connecting to MASTER 127.0.0.1:6397\n24506:S 03 Dec 2026 15:58:${String(10 + i).padStart(2, '0')}.512 # Error condition on socket for SYNC: Connection refused\n`;
  const replica = await condense(log);
  t.is(replica.format, 'timestamped log');
  const refused = find(replica, 'Error condition on socket')!;
  t.is(refused.severity, 'error');
  t.is(refused.template, '# Error condition on socket for SYNC: Connection refused');
  t.is(refused.firstTime, '03 Dec 2026 15:58:10.512');
});

test('Erlang/OTP\'s reports: a header line with no message is one record with the lines under it, its kind the level, its first line the template', async (t) => {
  const r = await condense(real('erlang-crash.log'));
  t.is(r.format, 'timestamped log');
  t.deepEqual(r.groups.slice(0, 3).map((g) => [g.severity, g.firstTime?.startsWith('3-Dec-2026::')]), [['error', true], ['error', true], ['error', true]]);
  const crash = find(r, 'crasher:')!;
  t.true(crash.exampleMore.some((l) => l.includes('exception error: no match of right hand side value error')), JSON.stringify(crash.exampleMore));
  t.true(crash.exampleMore.some((l) => l.includes('in function  rate_srv:handle_call/3 (rate_srv.erl, line 13)')), JSON.stringify(crash.exampleMore));
  const terminating = find(r, 'Generic server rate_srv terminating')!;
  t.true(terminating.exampleMore.includes('** Last message in was {convert,120,<<"CHF">>}'), JSON.stringify(terminating.exampleMore));
  const invoices = find(r, 'converted:')!;
  t.is(invoices.severity, 'info');
  t.is(invoices.count, 30);
  t.is(invoices.lines, 60);
  t.is(find(r, 'supervisor: {local,rate_sup}')?.severity, 'error', 'the supervisor\'s report on its child');
});

test('TeX\'s `!` error is an error, with the `l.N` line that names where it stopped', async (t) => {
  const r = await condense(real('latex-undefined.log'));
  const g = r.groups[0]!;
  t.is(g.severity, 'error');
  t.is(g.example, '! Undefined control sequence.');
  t.true(g.exampleMore.some((l) => l.startsWith('l.214 Latency is summarised in \\latencysummary')), JSON.stringify(g.exampleMore));
  t.is(find(r, 'LaTeX Warning: Reference')!.severity, 'warning');
});

test('a server\'s DETAIL and STATEMENT under its ERROR\'s header say more of that error; PostgreSQL\'s LOG is its level for the normal course', async (t) => {
  const r = await condense(real('postgres-fk.log'));
  const errors = r.groups.filter((g) => g.severity === 'error');
  t.is(errors.length, 1, errors.map((g) => g.template).join('\n'));
  const fk = errors[0]!;
  t.true(fk.template.includes('violates foreign key constraint'));
  t.is(fk.lines, 3);
  t.true(fk.exampleMore.some((l) => l.endsWith('DETAIL:  Key (invoice_id)=(9041) is not present in table "invoices".')));
  t.true(fk.exampleMore.some((l) => l.includes('STATEMENT:  insert into payments(invoice_id, amount) values (9041, 10.00)')));
  // The session's disconnection a millisecond later is a record of its own, and LOG lines
  // are info whatever their words (`... exited with exit code 1` at shutdown).
  t.is(find(r, 'exited with exit code')!.severity, 'info');
  t.true(find(r, 'LOG:  disconnection')!.count > 30);
});

test('PHP: the error log\'s [03-Dec-2026 14:28:15 UTC] starts records; an uncaught exception, its frames and its Next are one record', async (t) => {
  const r = await condense(real('php-uncaught.log'));
  const fatal = find(r, 'PHP Fatal error:  Uncaught JsonException')!;
  t.is(fatal.lines, 11);
  t.true(fatal.template.endsWith('| Next RuntimeException: message <NUM> from queue invoices.issued could not be decoded in /tmp/wisp-real/php-uncaught/consumer.php:<NUM>'), fatal.template);
  t.true(fatal.exampleMore.includes('#0 /tmp/wisp-real/php-uncaught/consumer.php(15): decode()'), fatal.exampleMore.join('\n'));
  t.is(fatal.firstTime, '03-Dec-2026 14:28:15 UTC');
  t.is(find(r, '[consumer] processed msg=')!.severity, 'info');
});

test('java.util.logging\'s two-line records: the time and source, then LEVEL: message, are one record with that level and template', async (t) => {
  const r = await condense(real('java-jul.log'));
  t.is(r.groups.length, 5, r.groups.map((g) => g.template).join('\n'));
  const severe = r.groups[0]!;
  t.is(severe.severity, 'error');
  t.true(severe.template.startsWith('SEVERE: batch item skipped: SKU-<NUM> | Caused by: java.lang.NumberFormatException'), severe.template);
  t.is(severe.lines, 13, 'its header line, its level line, the exception and its frames');
  t.true(severe.exampleMore.some((l) => l.includes('Sync.readStock(Sync.java:9)')));
  const synced = find(r, 'INFO: synced SKU-<NUM> qty=<NUM>')!;
  t.is(synced.count, 59);
  t.is(synced.lines, 118);
  t.regex(synced.firstTime ?? '', /^[A-Z][a-z]{2} \d\d, \d{4} \d{1,2}:\d\d:\d\d [AP]M$/);
  // No group is made of header lines alone.
  t.false(r.groups.some((g) => g.template.includes('Sync main')));
});

test('Ruby: an error logged with its cause is one record, the cause\'s line (the place first) its root, the program\'s frame shown', async (t) => {
  const r = await condense(real('ruby-logger-cause.log'));
  const error = r.groups.find((g) => g.severity === 'error')!;
  t.is(error.lines, 11, 'the head, four frames, the cause, four frames and the blank line full_message ends with');
  t.true(error.template.endsWith('| payout.rb:<NUM>:in `fetch\': key not found: "SEK" (KeyError)'), error.template);
  t.true(error.exampleMore.includes('\tfrom payout.rb:12:in `to_eur\''), error.exampleMore.join('\n'));
  t.false(r.groups.some((g) => g.template.includes('KeyError') && g !== error), 'the cause is no record of its own');
});

test('an access log\'s status is its level: a 502 is an error, a 200 the normal course whatever its path says', async (t) => {
  const log = `${real('nginx-upstream-down.log')}127.0.0.1 - - [03/Dec/2026:15:09:00 +0000] "GET /login-failed HTTP/1.1" 200 12 "-" "shop-web/2.4"\n`;
  const r = await condense(log);
  const bad = r.groups.find((g) => g.example.includes('" 502 '))!;
  t.is(bad.severity, 'error');
  t.is(bad.count, 10);
  t.true(r.groups.filter((g) => g.example.includes('" 200 ')).every((g) => g.severity === 'info'));
  t.is(find(r, 'connect() failed')!.severity, 'error');
  // The errors are the 502s and nginx's own error lines: the 200 for /login-failed is none of them.
  const errors = r.groups.filter((g) => g.severity === 'error' || g.severity === 'warning' || g.severity === 'critical');
  t.deepEqual(errors.map((g) => g.example.includes('" 502 ') || g.template.includes('connect() failed')), errors.map(() => true));
  t.is(r.linesBySeverity.info, r.totals.lines - 21, 'all but the 20 error lines and nginx\'s one notice');
});

test('memory checkers: valgrind\'s reports are errors read past its ==pid== prefix, a sanitizer\'s report is one critical record', async (t) => {
  const vg = await condense(real('valgrind-memcheck.log'));
  const read = find(vg, 'Invalid read of size')!;
  t.is(read.severity, 'error', 'native frames under a line with no level: a memory error');
  t.true(read.lines >= 6, 'its frames and the block it points into are part of it');
  t.true(read.exampleMore.some((l) => l.includes('total_qty (inventory.c:10)')), read.exampleMore.join('\n'));
  const leak = find(vg, 'definitely lost')!;
  t.is(leak.severity, 'error');
  // Its banner names what it looks for, not an error that happened.
  t.is(find(vg, 'Memcheck, a memory error detector')!.severity, 'info');
  t.true(leak.exampleMore.some((l) => l.includes('make_label (inventory.c:15)')), 'the program\'s frame, not malloc\'s in valgrind\'s preload');
  t.is(find(vg, 'HEAP SUMMARY')?.severity, 'info', 'a summary without frames stays as it was');
  const asan = await condense(real('asan-use-after-free.log'));
  const report = asan.groups[0]!;
  t.is(report.severity, 'critical');
  t.true(report.template.includes('AddressSanitizer: heap-use-after-free'));
  for (const line of ['READ of size 4', 'freed by thread T0 here:', 'in close_session', 'SUMMARY: AddressSanitizer: heap-use-after-free']) {
    t.true(report.exampleMore.some((l) => l.includes(line)), line);
  }
  t.false(report.exampleMore.some((l) => l.includes('__interceptor_free')), 'the sanitizer\'s own frame is not the one shown');
  t.true(report.lines >= 40, 'the shadow bytes and stacks are lines of the one record');
  t.falsy(asan.groups.find((g) => /Shadow byte|allocated by thread/.test(g.template)), 'no part of the report is a group of its own');
  // Go's race detector indents its stacks: each access shows its function's line and its file's under it.
  const race = (await condense(real('go-data-race.log'))).groups[0]!;
  const more = race.exampleMore;
  for (const [fn, file] of [['main.(*Cache).Total()', 'main.go:19'], ['main.(*Cache).Record()', 'main.go:15']] as const) {
    const at = more.findIndex((l) => l.trim() === fn);
    t.true(at >= 0 && more[at + 1]!.includes(file), `${fn} then ${file}:\n${more.join('\n')}`);
  }
});

test('a Go panic after timestamped lines is a record of its own, critical, with its message and the program\'s frame', async (t) => {
  const r = await condense(real('go-nil-panic.log'));
  const panic = r.groups[0]!;
  t.is(panic.severity, 'critical');
  t.true(panic.template.startsWith('panic: runtime error: invalid memory address or nil pointer dereference'));
  t.true(panic.exampleMore.some((l) => l.startsWith('[signal SIGSEGV')));
  t.true(panic.exampleMore.some((l) => l.startsWith('main.dsn(') || l.startsWith('main.connect(')), panic.exampleMore.join('\n'));
  // The log lines before it stay info records of their own.
  t.is(r.linesBySeverity.info, 3);
});

test('a Python traceback after a logging line: its own error record, the final exception shown and part of the group', async (t) => {
  const r = await condense(`2026-12-01 10:00:00,001 INFO worker: started\n${real('python-keyerror.log')}`);
  const tb = r.groups.find((g) => g.template.startsWith('Traceback'))!;
  t.is(tb.severity, 'error');
  t.true(tb.template.endsWith("| KeyError: 'broker_url'"), tb.template);
  t.true(tb.exampleMore.includes("KeyError: 'broker_url'"));
});

test('a traceback under the ERROR line that logged it (logger.exception) is part of that record; after a WARNING it is a record of its own', async (t) => {
  const logged = await condense(readFileSync(join(ROOT, 'fixtures', 'real', 'pairs', 'out', 'python-logging.fail.log'), 'utf8'));
  const batch = find(logged, 'batch <NUM> failed after <NUM> attempts')!;
  // The ERROR line, the traceback and its exception's line (`UpstreamTimeout: ...`, named by its class alone).
  t.is(batch.lines, 11);
  t.true(batch.exampleMore.some((l) => l.includes('raise UpstreamTimeout(')), batch.exampleMore.join('\n'));
  t.true(batch.exampleMore.some((l) => l.startsWith('UpstreamTimeout: upstream did not answer batch')), batch.exampleMore.join('\n'));
  t.false(logged.groups.some((g) => g.template.startsWith('Traceback')));
  // python-keyerror's traceback follows a WARNING: the program's uncaught end (the test above).
  const uncaught = await condense(real('python-keyerror.log'));
  t.true(uncaught.groups.some((g) => g.template.startsWith('Traceback')));
});

test('a worker\'s traceback quoted in a logged exception\'s message (RemoteTraceback, then """) is part of the record that logged it', async (t) => {
  const text = real('python-pool-logged.log');
  const r = await condense(text);
  const failed = find(r, 'shard <NUM> failed')!;
  t.is(failed.severity, 'error');
  t.is(failed.count, 1);
  // From the ERROR line to the last KeyError: the quoted traceback, the chain marker and the parent's traceback.
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.includes('ERROR etl: shard 3 failed')) + 1;
  const last = lines.map((l) => l.startsWith("KeyError: 'CHF'")).lastIndexOf(true) + 1;
  t.is(failed.lines, last - first + 1);
  t.true(failed.exampleMore.some((l) => l.includes('line 12, in convert')), failed.exampleMore.join('\n'));
  t.true(failed.exampleMore.some((l) => l.startsWith("KeyError: 'CHF'")), failed.exampleMore.join('\n'));
  t.false(r.groups.some((g) => g.template.startsWith('Traceback') || g.template.startsWith('"""')), r.groups.map((g) => g.template).join('\n'));
  // Uncaught (python-pool.log), the quoted traceback stays with its RemoteTraceback line too.
  const uncaught = await condense(real('python-pool.log'));
  const remote = find(uncaught, 'RemoteTraceback')!;
  t.true(remote.exampleMore.some((l) => l.startsWith('ZeroDivisionError')), remote.exampleMore.join('\n'));
  t.false(uncaught.groups.some((g) => g.template.startsWith('"""')));
  // A pool inside a pool's worker: the inner remote traceback, quoted in the outer, begins with its own exception's line.
  const nested = [
    '2026-12-06 06:40:09,700 ERROR app: nested job failed',
    'concurrent.futures.process._RemoteTraceback: ',
    '"""',
    'concurrent.futures.process._RemoteTraceback: ',
    '"""',
    'Traceback (most recent call last):',
    '  File "/srv/jobs.py", line 5, in leaf',
    '    def leaf(x): raise DiskFull(f"/data{x}: no space")',
    'DiskFull: /data1: no space',
    '"""',
    '',
    'The above exception was the direct cause of the following exception:',
    '',
    'Traceback (most recent call last):',
    '  File "/srv/jobs.py", line 8, in mid',
    '    return ex.submit(leaf, x).result()',
    'DiskFull: /data1: no space',
    '"""',
    '2026-12-06 06:40:09,800 INFO app: cleanup 1',
  ];
  const inner = await condense(`${nested.join('\n')}\n`);
  t.is(find(inner, 'nested job failed')?.lines, nested.length - 1, inner.groups.map((g) => `${g.lines} ${g.template}`).join('\n'));
  // The same records however the input is cut.
  for (const options of [{ workers: 2, chunkBytes: 1 }, { workers: 1, chunkBytes: 97 }]) {
    t.is(JSON.stringify(await condense(text + text, options)), JSON.stringify(await condense(text + text)), JSON.stringify(options));
    t.is(JSON.stringify(await condense(`${nested.join('\n')}\n`, options)), JSON.stringify(inner), JSON.stringify(options));
  }
});

test('Python\'s exception line ends its traceback whatever its class is called (RenderTimedOut, billing.limits.QuotaExceeded): in the record, its cause', async (t) => {
  const r = await condense(real('python-custom-exception.log'));
  const logged = find(r, 'invoice skipped')!;
  t.is(logged.severity, 'error');
  t.true(logged.exampleMore.some((l) => l.startsWith('RenderTimedOut: invoice for account 7')), logged.exampleMore.join('\n'));
  const uncaught = r.groups.find((g) => g.template.startsWith('Traceback'))!;
  t.true(uncaught.template.includes('billing.limits.QuotaExceeded: account'), uncaught.template);
  t.is(uncaught.severity, 'error');
  // Only the line right under the frames is read so: a program's own line after it starts a record.
  const after = await condense(`${real('python-custom-exception.log')}Shutting down: 3 workers\nDone\n`);
  t.truthy(find(after, 'Shutting down'));
  t.truthy(find(after, 'Done'));
  // A class named by one word is one too.
  const boom = await condense('2026-12-06 06:11:46,463 INFO app: started\nTraceback (most recent call last):\n  File "/srv/app.py", line 3, in <module>\n    raise Boom("exploded")\nBoom: exploded\n');
  t.true(boom.groups.some((g) => g.template.startsWith('Traceback') && g.template.endsWith('Boom: exploded')), boom.groups.map((g) => g.template).join('\n'));
  // Nor is a line that reads so without a traceback above it.
  const plain = await condense('2026-12-06 06:11:46,463 INFO app: started\n    indented detail\nSummary: 3 accounts\n');
  t.is(find(plain, 'Summary')?.severity, 'info');
});

test('a program\'s Python traceback carries at most a hundred indented lines under its exception\'s line: the rows it printed after are records, not error lines', async (t) => {
  const text = real('python-buffered-stdout.log');
  const r = await condense(text);
  const tb = r.groups.find((g) => g.template.startsWith('Traceback'))!;
  t.is(tb.severity, 'error');
  t.true(tb.template.includes('ValueError: could not convert string to float'), tb.template);
  t.true(tb.exampleMore.includes("ValueError: could not convert string to float: '12.5O'"), tb.exampleMore.join('\n'));
  // Traceback, two frame lines, the caret, the exception's line, then a hundred lines at most (242 rows follow).
  t.is(tb.lines, 5 + 100);
  t.truthy(find(r, 'row <NUM>'), 'the rows after them are grouped as rows');
  // A long message is the exception's own: pytest's diff under --tb=native -vv (58 lines) stays in its record.
  const pytest = await condense(real('pytest-native-diff.log'));
  const assertion = pytest.groups.find((g) => g.template.startsWith('Traceback') && g.template.includes('AssertionError'))!;
  const lines = real('pytest-native-diff.log').split('\n');
  t.is(assertion.lastLine, lines.findIndex((l) => l.startsWith('FAILED ')) - 1, 'the record ends where pytest\'s summary begins');
  t.false(pytest.groups.some((g) => /^ +(?:Differing items|Full diff)/.test(g.template)), pytest.groups.map((g) => g.template).join('\n'));
  // Under a log line's header the next header ends the record: its message keeps every line.
  const fields = ['id', 'sku', 'qty', 'price', 'currency', 'customer', 'address'].flatMap((f) => [`  ${f}`, '    Input should be a valid value [type=value_error]']);
  const logged = await condense(
    `2026-12-06 06:40:01,100 ERROR app: order rejected\nTraceback (most recent call last):\n  File "/srv/app.py", line 9, in <module>\n    raise ValidationError(msg)\nValidationError: 7 validation errors for Order\n${fields.join('\n')}\n2026-12-06 06:40:01,200 INFO app: placing next order\n`,
  );
  t.is(find(logged, 'order rejected')!.lines, 5 + fields.length);
  t.is(logged.groups.filter((g) => g.severity === 'error').length, 1);
  // A message that goes on indented under its exception's line keeps its lines.
  const message = await condense(
    `2026-12-06 06:11:46,463 ERROR db: query failed\nTraceback (most recent call last):\n  File "/srv/db.py", line 3, in run\n    cur.execute(q)\npsycopg2.OperationalError: could not connect to server\n\tIs the server running on host "db" and accepting\n\tTCP/IP connections on port 5432?\n2026-12-06 06:11:47,001 INFO db: retrying\n`,
  );
  t.is(find(message, 'query failed')!.lines, 7);
  for (const options of [{ workers: 2, chunkBytes: 1 }, { workers: 1, chunkBytes: 4096 }]) {
    t.is(JSON.stringify(await condense(text, options)), JSON.stringify(r), JSON.stringify(options));
  }
});

test('a library\'s source line under its frame is no detail of the error (pytest\'s pluggy: `raise exception`), so the diff under the assertion is shown', async (t) => {
  const r = await condense(real('pytest-native-diff.log'));
  const assertion = r.groups.find((g) => g.template.startsWith('Traceback') && g.template.includes('AssertionError'))!;
  t.false(assertion.exampleMore.some((l) => /^\s+(?:raise exception|teardown\.throw\(exception\))$/.test(l)), assertion.exampleMore.join('\n'));
  t.true(assertion.exampleMore.some((l) => /^\s*[-+] +'worker_7_threads'/.test(l)), assertion.exampleMore.join('\n'));
  // The program's own frames' source lines are still read: the frame shown is the test's.
  t.true(assertion.exampleMore.some((l) => l.includes('test_')), assertion.exampleMore.join('\n'));
});

test('Python\'s exception group traceback, indented at its lines\' bar, is one record: under the ERROR line that logged it, or its own after a plain line', async (t) => {
  const text = real('python-exception-group.log');
  const lines = text.split('\n');
  const { whole: _, ...r } = await condense(text);
  const logged = find(r as LogResult, 'shard sync failed')!;
  const plain = lines.indexOf('retrying all shards') + 1;
  t.is(logged.lastLine, plain - 1, 'the logged group ends where the plain line begins');
  t.true(logged.exampleMore.some((l) => l.includes('ConnectionResetError: shard 2')), logged.exampleMore.join('\n'));
  const uncaught = r.groups.find((g) => g.template.trimStart().startsWith('+ Exception Group Traceback'))!;
  t.is(uncaught.severity, 'error');
  t.is(uncaught.firstLine, plain + 1);
  t.is(uncaught.lastLine, lines.length - 1);
  const before = find(r as LogResult, 'retrying all shards')!;
  t.is(before.lines, 1, 'the plain line before it stays a line of its own');
  t.not(before.severity, 'error');
  for (const options of [{ workers: 2, chunkBytes: 1 }, { workers: 1, chunkBytes: 97 }]) {
    t.is(JSON.stringify(await condense(text + text, options)), JSON.stringify(await condense(text + text)), JSON.stringify(options));
  }
});

test('a Python exception\'s annotations at column 0 (SQLAlchemy\'s `[SQL: ...]`, psycopg\'s `DETAIL:`) stay with it, logged or uncaught, and are shown; a program\'s print() lines after it do not', async (t) => {
  const text = real('python-orders-worker.log');
  const lines = text.split('\n');
  const lineOf = (start: string, from = 0): number => lines.findIndex((l, i) => i >= from && l.startsWith(start)) + 1;
  const { whole: _, ...r } = await condense(text);
  const logged = find(r as LogResult, 'not stored')!;
  t.is(logged.severity, 'error');
  t.is(logged.lastLine, lineOf('(Background on this error at:'), 'the logged error ends with its message');
  t.true(logged.exampleMore.includes('[SQL: INSERT INTO orders (id, quantity, email) VALUES (?, ?, ?)]'), logged.exampleMore.join('\n'));
  t.falsy(find(r as LogResult, '[SQL: INSERT'), 'no line of its message is a record of its own');
  // An uncaught one's too.
  const uncaught = r.groups.find((g) => g.template.startsWith('Traceback'))!;
  t.is(uncaught.lastLine, lines.length - 1);
  t.true(uncaught.exampleMore.includes('[SQL: SELECT SUM(quantity) FROM order_total]'), uncaught.exampleMore.join('\n'));
  t.deepEqual(r.groups.filter((g) => /^[[(]/.test(g.template)).map((g) => g.template), [], 'no annotation is a record of its own');
  // In a log without headers as well, and however the input is cut.
  const bare = lines.slice(lineOf('2026-12-06 08:26:29,749 INFO orders: rolling up')).join('\n');
  const plain = await condense(bare);
  t.is(plain.format, 'plain text');
  t.is(plain.groups.find((g) => g.template.startsWith('Traceback'))!.lines, bare.split('\n').length - 1);
  // A plain line under a routine header is a record of its own.
  const routine = await condense('2026-12-06 08:26:29,749 INFO orders: rolling up\n[SQL: SELECT 1]\n');
  t.is(routine.totals.records, 2);
  // A program's print() lines after a logged exception, in the same stream, are its own
  // records; an annotation after them is no longer the message's.
  const head = Array.from({ length: 50 }, (_, i) => `2026-12-06 08:00:${String(i % 60).padStart(2, '0')},000 INFO w: step ${i}`).join('\n');
  const raised = '2026-12-06 08:01:00,000 ERROR w: step failed\nTraceback (most recent call last):\n  File "/srv/w.py", line 3, in <module>\n    run()\nValueError: bad row';
  const printed = `${head}\n${raised}\nDETAIL:  row 7 has 3 fields\n${Array.from({ length: 30 }, (_, i) => `generated line ${i}`).join('\n')}\n(done)\n${head}\n`;
  const p = await condense(printed);
  t.is(find(p, 'step failed')!.lines, 6, 'the exception and its DETAIL line');
  t.is(find(p, 'generated line')!.count, 30);
  t.truthy(find(p, '(done)'));
  for (const options of [{ workers: 2, chunkBytes: 1 }, { workers: 1, chunkBytes: 97 }]) t.is(JSON.stringify(await condense(printed, options)), JSON.stringify(p), JSON.stringify(options));
  for (const options of [{ workers: 2, chunkBytes: 1 }, { workers: 1, chunkBytes: 97 }, { workers: 0, chunkBytes: 4096 }]) {
    t.is(JSON.stringify(await condense(text + text, options)), JSON.stringify(await condense(text + text)), JSON.stringify(options));
    t.is(JSON.stringify(await condense(bare + bare, options)), JSON.stringify(await condense(bare + bare)), JSON.stringify(options));
  }
});

test('a ValidationError\'s fields at column 0, each with its error indented under it, stay with the warning that logged it or the exception\'s line; a bare word elsewhere is a record', async (t) => {
  const text = real('python-orders-worker.log');
  const lines = text.split('\n');
  const { whole: _, ...r } = await condense(text);
  const warning = find(r as LogResult, 'validation errors for Order')!;
  t.is(warning.severity, 'warning');
  t.is(warning.lastLine, lines.findIndex((l) => l.startsWith('customer.email')) + 3, 'the warning ends with its last field\'s error');
  for (const shown of ['quantity', 'customer.email', '  Field required [type=missing']) t.true(warning.exampleMore.some((l) => l.startsWith(shown)), `${shown}\n${warning.exampleMore.join('\n')}`);
  t.deepEqual(r.groups.filter((g) => /^(?:quantity|customer\.email)/.test(g.template)).map((g) => g.template), [], 'no field is a record of its own');
  // Under an exception's line, uncaught: every field, however many routine lines came before.
  const routine = Array.from({ length: 40 }, (_, i) => `2026-12-06 08:00:${String(i % 60).padStart(2, '0')},000 INFO api: request ${i} served`).join('\n');
  const fields = (n: number): string => Array.from({ length: n }, (_, i) => `items.${i}.sku\n  String should have at most 12 characters [type=string_too_long]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_too_long`).join('\n');
  const uncaught = `${routine}\nTraceback (most recent call last):\n  File "/srv/api.py", line 9, in <module>\n    Order.model_validate(payload)\npydantic_core._pydantic_core.ValidationError: 3 validation errors for Order\n${fields(3)}\n`;
  const u = await condense(uncaught);
  const trace = u.groups.find((g) => g.template.startsWith('Traceback'))!;
  t.is(trace.lastLine, uncaught.split('\n').length - 1);
  t.is(u.groups.length, 2, u.groups.map((g) => g.template).join('\n'));
  // Only as many fields as the message announced: a status word a program prints after them is a record,
  // and so is a bare word after a warning or an error that announced none (`failed` under `not ready`).
  const counted = await condense(`${routine}\n2026-12-06 08:01:00,000 WARNING api: rejected: 1 validation error for Order\nquantity\n  Field required [type=missing]\nok\n`);
  t.is(find(counted, 'rejected')!.lines, 3);
  t.truthy(find(counted, 'ok'));
  for (const [head, word] of [['ERROR api: out of memory', 'Killed'], ['WARNING api: nginx.service not ready after 140s', 'failed'], ['ERROR api: artifact missing', 'app.js']]) {
    const r2 = await condense(`${routine}\n2026-12-06 08:01:00,000 ${head}\n${word}\n`);
    t.truthy(r2.groups.find((g) => g.template === word || g.example === word), word);
  }
  // Its message on the line under the header that logged it (`log.error("rejected %s\\n%s", src, e)`), at any level.
  const nextLine = await condense(`${routine}\n2026-12-06 08:01:00,000 INFO api: rejected shipment from ups\n2 validation errors for Shipment\n${fields(2)}\n${routine}\n`);
  t.is(find(nextLine, 'rejected shipment')!.lines, 8);
  t.is(find(nextLine, 'rejected shipment')!.severity, 'info');
  const logged = `${routine}\n2026-12-06 08:01:00,000 WARNING api: payload rejected: 3 validation errors for Order\n${fields(3)}\n${routine}\n${uncaught}`;
  const l = await condense(logged);
  t.is(find(l, 'payload rejected')!.lines, 10);
  // The fields key the group and are named: a payload refused for another field is another event, and every field of a long list is shown.
  const rejection = (n: number, field: string): string => `2026-12-06 08:02:${String(n).padStart(2, '0')},000 WARNING api: payload ${n} rejected: 1 validation error for Order\n${field}\n  Input should be a valid integer [type=int_parsing]`;
  const rare = await condense([routine, ...Array.from({ length: 20 }, (_, i) => rejection(i, i === 13 ? 'merchant_id' : 'amount'))].join('\n'));
  const byField = rare.groups.filter((g) => g.template.includes('validation error for Order'));
  t.deepEqual(byField.map((g) => [g.count, g.template.split(' | ')[1]]), [[19, 'amount'], [1, 'merchant_id']]);
  const settings = ['database_url', 'redis_url', 'secret_key', 'stripe_api_key', 'sentry_dsn'];
  const many = await condense(`${routine}\n2026-12-06 08:03:00,000 ERROR api: refusing to start: 5 validation errors for Settings\n${settings.map((f) => `${f}\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/missing`).join('\n')}\n${routine}\n`);
  const refused = find(many, 'refusing to start')!;
  t.deepEqual(settings.filter((f) => !refused.exampleMore.includes(f)), [], refused.exampleMore.join('\n'));
  t.true(refused.exampleMoreLines > 0);
  const nextLines = `${routine}\n2026-12-06 08:01:00,000 ERROR api: rejected shipment from ups\n2 validation errors for Shipment\n${fields(2)}\n`.repeat(3);
  for (const options of [{ workers: 2, chunkBytes: 1 }, { workers: 1, chunkBytes: 97 }, { workers: 0, chunkBytes: 4096 }]) {
    t.is(JSON.stringify(await condense(nextLines, options)), JSON.stringify(await condense(nextLines)), JSON.stringify(options));
    t.is(JSON.stringify(await condense(logged, options)), JSON.stringify(l), JSON.stringify(options));
    t.is(JSON.stringify(await condense(text + text, options)), JSON.stringify(await condense(text + text)), JSON.stringify(options));
  }
});

test('Python\'s hooks head the traceback they print: `Exception in thread poller:` and `Exception ignored in:` are one record with it, among log lines', async (t) => {
  const text = real('python-thread-hooks.log');
  const lines = text.split('\n');
  const lineOf = (start: string): number => lines.findIndex((l) => l.startsWith(start)) + 1;
  const { whole: _, ...r } = await condense(text);
  for (const [head, exception] of [
    ['Exception in thread poller:', 'FileNotFoundError: '],
    ['Exception ignored in: ', 'BrokenPipeError: '],
  ] as const) {
    const g = r.groups.find((x) => x.template.startsWith(head))!;
    t.is(g.severity, 'error', head);
    t.is(g.firstLine, lineOf(head));
    t.is(g.lastLine, lineOf(exception), `${head} ends with its exception's line`);
    t.true(g.exampleMore.some((l) => l.startsWith(exception)), g.exampleMore.join('\n'));
  }
  t.deepEqual(r.groups.filter((g) => g.template.startsWith('Traceback')).map((g) => g.firstLine), [], 'no traceback stands apart from its head');
  // multiprocessing's `Process indexer-3:` heads its worker's traceback as well. A traceback after
  // any other line, a shell's `Killed` among them, is still a record of its own.
  const traceback = 'Traceback (most recent call last):\n  File "/srv/p.py", line 3, in poll\n    open(sock)\nFileNotFoundError: x\n';
  const processHook = await condense(`Process indexer-3:\n${traceback}`);
  t.is(processHook.totals.records, 1);
  t.is(processHook.groups[0]!.severity, 'error');
  for (const before of ['thread poller stopped', 'Killed', 'Process finished']) t.is((await condense(`${before}\n${traceback}`)).totals.records, 2, before);
});

test('a location heading at column 0 heads the failure under it (gfortran, doctest); a frame without a symbol is no own frame', async (t) => {
  // As gfortran -fcheck=bounds -g prints a bounds error and its backtrace.
  const text = `${Array.from({ length: 30 }, (_, i) => `step ${i}  energy=   2380.0000`).join('\n')}\nAt line 30 of file heat.f90\nFortran runtime error: Index '101' of dimension 1 of array 'u' above upper bound of 100\n\nError termination. Backtrace:\n#0  0x7f038ee218c2 in ???\n#1  0x7f038ee223b9 in ???\n#2  0x55628baaa57c in diffuse\n\tat /src/heat.f90:30\n#3  0x55628baaa9fb in main\n\tat /src/heat.f90:18\n`;
  const r = await condense(text);
  const at = find(r, 'At line <NUM> of file')!;
  t.is(at.severity, 'error');
  t.true(at.exampleMore[0]!.startsWith('Fortran runtime error: Index'), at.exampleMore.join('\n'));
  // A line that only begins like a heading still announces by its end.
  const announced = await condense('At the end of the run:\nparse_config failed\n');
  t.is(announced.totals.records, 1, 'the line it announces is its own');
  const backtrace = find(r, 'Error termination. Backtrace:')!;
  t.deepEqual(backtrace.exampleMore.slice(0, 2), ['#2  0x55628baaa57c in diffuse', '\tat /src/heat.f90:30']);
});

test('the same exception raised at another place in the program is another group: a recurring one does not swallow it', async (t) => {
  const traceback = (file: string, line: number, fn: string): string =>
    `Traceback (most recent call last):\n  File "/srv/app/${file}", line ${line}, in ${fn}\n    return total / count\nZeroDivisionError: division by zero\n`;
  let text = '';
  for (let i = 0; i < 6; i++) text += `2026-12-01 10:00:0${i},001 ERROR stats: mean of an empty window\n${traceback('stats.py', 20, 'mean')}`;
  text += `2026-12-01 10:00:09,001 ERROR batch: shard failed\n${traceback('batch.py', 14, 'compute_ratio')}`;
  const r = await condense(text);
  const groups = r.groups.filter((g) => g.template.endsWith('| ZeroDivisionError: division by zero'));
  t.deepEqual(groups.map((g) => g.count), [6, 1]);
  t.true(groups[1]!.exampleMore.some((l) => l.includes('in compute_ratio')), groups[1]!.exampleMore.join('\n'));
  for (const options of [{ workers: 2, chunkBytes: 64 }, { workers: 0, chunkBytes: 1 }]) t.deepEqual(await condense(text, options), r, JSON.stringify(options));
});

test('a Java cause chain: every Caused by line is shown, then how many lines are left', async (t) => {
  const r = await condense(real('java-cause-chain.log'));
  const text = renderLogText(r, 10_000);
  for (const cause of real('java-cause-chain.log').split('\n').filter((l) => l.startsWith('Caused by: '))) {
    t.true(text.includes(cause.slice(0, 200)), cause);
  }
  t.regex(text, /\(\d+ more lines\)/);
  const chained = r.groups.find((g) => g.exampleMore.some((l) => l.startsWith('Caused by: ')))!;
  t.is(chained.exampleMoreLines, chained.lines / chained.count - 1 - chained.exampleMore.length);
});

test('timestamps that are not zero-padded still start records: 2,000 HealthApp-style lines are 2,000 records', async (t) => {
  const rand = seededRandom(7);
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const h = Math.floor(rand() * 24);
    const ms = Math.floor(rand() * 1000);
    const stamp = `2017122${3 + (i > 1000 ? 1 : 0)}-${h}:${Math.floor(rand() * 60)}:${Math.floor(rand() * 60)}:${ms}`;
    lines.push(rand() < 0.5 ? `${stamp}|Step_LSC|30002312|onStandStepChanged ${3000 + i}` : `${stamp}|Step_SPUtils|30002312| getTodayTotalDetailSteps = 1514038440000##${i}##548365`);
  }
  const r = await condense(`${lines.join('\n')}\n`);
  t.is(r.totals.records, 2000);
  t.is(r.totals.groups, 2);
});

test('a level column decides severity where the log has one, whatever the words in the message', async (t) => {
  // BGL: the level is the 9th field; the message says "critical".
  const bgl = await condense(
    [
      '- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO 1 critical input interrupts',
      '- 1117838571 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.51.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected',
      'KERNDTLB 1117838572 2005.06.03 R23-M0-NE-C:J05-U01 2005-06-03-15.42.52.127 R23-M0-NE-C:J05-U01 RAS KERNEL FATAL data TLB error interrupt',
      '- 1117838573 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.53.675872 R02-M1-N0-C:J12-U11 RAS APP WARNING ciod: failed to read message prefix',
    ].join('\n'),
  );
  t.is(find(bgl, 'critical input interrupts')?.severity, 'info');
  t.is(find(bgl, 'parity error corrected')?.severity, 'info');
  t.is(find(bgl, 'data TLB error interrupt')?.severity, 'critical');
  t.is(find(bgl, 'failed to read message prefix')?.severity, 'warning');

  // Windows CBS: `Info` in title case after the time.
  const cbs = await condense(
    [
      '2016-09-28 04:30:30, Info                  CBS    Loaded Servicing Stack v6.1.7601.23505 with Core: C:\\Windows\\winsxs\\cbscore.dll',
      '2016-09-28 04:30:31, Info                  CSI    00000001@2016/9/27:20:30:31.455 WcpInitialize (wcp.dll version 0.0.0.6) called (stack @0x7fed806eb5d @0x7fef9fb9b6d)',
      '2016-09-28 04:30:31, Info                  CBS    Failed to start upload with file pattern: C:\\Windows\\servicing\\sqm\\*_std.sqm, flags: 0x2 [HRESULT = 0x80004005 - E_FAIL]',
      '2016-09-28 04:30:32, Warning               CBS    Failed to get next element [HRESULT = 0x800f080d - CBS_E_MANIFEST_INVALID_ITEM]',
      '2016-09-28 04:30:33, Error                 CBS    Failed to process single phase execution. [HRESULT = 0x800f0902]',
    ].join('\n'),
  );
  t.is(find(cbs, 'Failed to start upload')?.severity, 'info');
  t.is(find(cbs, 'Failed to get next element')?.severity, 'warning');
  t.is(find(cbs, 'Failed to process single phase')?.severity, 'error');

  // Celery: LEVEL/worker inside the bracketed header.
  const celery = await condense(
    [
      '[2024-03-01 12:00:00,123: INFO/MainProcess] Connected to redis://localhost:6379/0',
      '[2024-03-01 12:00:01,456: WARNING/ForkPoolWorker-2] Timeout: 60',
      '[2024-03-01 12:00:02,789: ERROR/ForkPoolWorker-1] Task tasks.send[1b2c] raised unexpected: ConnectionError()',
      '[2024-03-01 12:00:03,000: INFO/ForkPoolWorker-1] Task tasks.add[3d4e] succeeded in 0.01s: 4',
    ].join('\n'),
  );
  t.is(find(celery, 'Timeout: <NUM>')?.severity, 'warning');
  t.is(celery.groups[0]!.severity, 'error');
  t.true(celery.groups[0]!.template.includes('raised unexpected'));

  // Android logcat: the single-letter column.
  const android = await condense(
    [
      '03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogsopening app wtoken = AppWindowToken',
      '03-17 16:13:38.819  1702  8671 D PowerManagerService: acquire lock=233570404, flags=0x1, tag="View Lock"',
      '03-17 16:13:38.820  1702  2395 E WindowManager: Exception while dispatching',
      '03-17 16:13:38.839  1702  2113 W ActivityManager: Timeout executing service: ServiceRecord{a}',
      '03-17 16:13:38.839  1702  2113 I ActivityManager: Start proc 2345 failed to fork',
    ].join('\n'),
  );
  t.is(find(android, 'Exception while dispatching')?.severity, 'error');
  t.is(find(android, 'Timeout executing service')?.severity, 'warning');
  t.is(find(android, 'failed to fork')?.severity, 'info');
});

test('log show --style ndjson and --style json: messageType is the level, eventMessage the template', async (t) => {
  const events = [
    { timestamp: '2025-12-11 12:13:46.490439+0100', messageType: 'Default', eventMessage: 'a fatal-sounding message that is only Default', processImagePath: '/usr/libexec/apsd', subsystem: 'com.apple.apsd', category: 'connection', processID: 360 },
    { timestamp: '2025-12-11 12:13:47.000000+0100', messageType: 'Error', eventMessage: 'Peer connection 12 failed', processImagePath: '/usr/libexec/apsd', subsystem: 'com.apple.apsd', category: 'connection', processID: 360 },
    { timestamp: '2025-12-11 12:13:48.000000+0100', messageType: 'Fault', eventMessage: 'Unexpected state for zone 7', processImagePath: '/usr/sbin/bluetoothd', subsystem: '', category: '', processID: 99 },
    { timestamp: '2025-12-11 12:13:49.000000+0100', messageType: 'Info', eventMessage: 'fix accuracy 5', processImagePath: '/usr/libexec/locationd', subsystem: 'com.apple.locationd', category: 'gps', processID: 7 },
  ];
  const ndjson = await condense(`${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
  const pretty = await condense(`[${events.map((e) => JSON.stringify(e, null, 2).replace(/": /g, '" : ')).join(',')}]\n`);
  for (const r of [ndjson, pretty]) {
    t.is(r.format, 'log show (ndjson style)');
    t.is(r.groups[0]!.severity, 'critical');
    t.is(r.groups[0]!.template, 'bluetoothd: Unexpected state for zone <NUM>');
    t.is(find(r, 'fatal-sounding')?.severity, 'notice');
    t.is(find(r, 'Peer connection')?.template, 'apsd: [com.apple.apsd:connection] Peer connection <NUM> failed');
    t.is(r.totals.records, 4);
  }
  t.true(pretty.read.notes.some((n) => n.includes('--style json')));
});

test('test runners\' failure markers rank as errors and first; a frame never outranks its message; an empty npm error line never leads', async (t) => {
  const tap = await condense('TAP version 13\nok 1 - loads\nnot ok 2 - fetches user\n  ---\n  error: boom\n  ...\nok 3 - saves\n1..3\n');
  t.is(tap.groups[0]!.template, 'not ok <NUM> - fetches user');
  t.is(tap.groups[0]!.severity, 'error');

  const rust = await condense(real('rust-panic.log'));
  t.regex(rust.groups[0]!.template, /^thread 'main' (?:\(<NUM>\) )?panicked at .*\| attempt to divide by zero$/);
  t.falsy(rust.groups.find((g) => /^\s*(?:\d+: |at )/.test(g.template)), 'no frame is a group of its own');

  for (const name of ['npm-ci-mismatch.log', 'npm-ci-broken-lock.log']) {
    const npm = await condense(real(name));
    t.not(npm.groups[0]!.template.trim(), 'npm error', name);
  }
});

test('JSON logs: the root cause under a record\'s error is shown with it: the end of err.cause, a chained traceback\'s first exception, a Java stack\'s last Caused by', async (t) => {
  const pino = JSON.stringify({
    level: 50,
    time: 1764600031174,
    msg: 'settlement failed',
    err: {
      type: 'Error',
      message: 'settlement batch 4412 aborted',
      stack: 'Error: settlement batch 4412 aborted\n    at settle (/srv/pay.js:8:61)',
      cause: { type: 'RetryError', message: 'gave up after 3 tries', cause: { type: 'DbError', message: 'connect ECONNREFUSED 10.4.2.17:5432', code: 'ECONNREFUSED' } },
    },
  });
  const chained = [
    'Traceback (most recent call last):',
    '  File "/srv/store.py", line 9, in get_session',
    '    return redis.get(key)',
    'ConnectionRefusedError: [Errno 111] Connection refused',
    '',
    'The above exception was the direct cause of the following exception:',
    '',
    'Traceback (most recent call last):',
    '  File "/srv/app.py", line 30, in handle',
    '    session = get_session(uid)',
    'RuntimeError: session store unavailable',
  ].join('\n');
  const structlog = JSON.stringify({ event: 'request failed', level: 'error', exception: chained });
  const java = JSON.stringify({ message: 'import failed', level: 'ERROR', exception: 'java.lang.IllegalStateException: import aborted\n\tat a.B.c(B.java:3)\nCaused by: java.io.IOException: disk quota exceeded\n\tat a.B.d(B.java:9)' });
  const plain = JSON.stringify({ level: 50, msg: 'no cause', err: { type: 'TypeError', message: 'x is undefined' } });
  const r = await condense(`${pino}\n${structlog}\n${java}\n${plain}\n`);
  t.deepEqual(find(r, 'settlement failed')!.exampleMore.slice(0, 2), ['Error: settlement batch 4412 aborted', 'caused by: DbError: connect ECONNREFUSED 10.4.2.17:5432']);
  t.deepEqual(find(r, 'request failed')!.exampleMore.slice(0, 2), ['RuntimeError: session store unavailable', 'caused by: ConnectionRefusedError: [Errno 111] Connection refused']);
  t.deepEqual(find(r, 'import failed')!.exampleMore.slice(0, 2), ['java.lang.IllegalStateException: import aborted', 'caused by: java.io.IOException: disk quota exceeded']);
  t.false(find(r, 'no cause')!.exampleMore.some((l) => l.startsWith('caused by:')), 'an error without a cause names none');
  // However deep the chain, its end is the root.
  let deep: Record<string, unknown> = { type: 'DiskError', message: 'no space left on /var' };
  for (let i = 0; i < 40; i++) deep = { type: `Wrapped${i}`, message: `step ${i} failed`, cause: deep };
  const chain = await condense(`${JSON.stringify({ level: 50, msg: 'deep chain', err: deep })}\n`);
  t.is(find(chain, 'deep chain')!.exampleMore[1], 'caused by: DiskError: no space left on /var');
});

test('JSON logs: the error a record carries is part of its group; epoch times are shown as ISO times', async (t) => {
  const line = (err: Record<string, string>, time: number): string => JSON.stringify({ level: 50, time, msg: 'request errored', err });
  const text = [
    line({ type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')" }, 1764600031174),
    line({ type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, 1764600032174),
    line({ type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')" }, 1764600033174),
  ].join('\n');
  const r = await condense(text);
  t.is(r.totals.groups, 2);
  t.truthy(find(r, 'request errored | TypeError'));
  t.truthy(find(r, 'request errored | Error: connect ECONNREFUSED'));
  t.is(find(r, 'TypeError')!.firstTime, '2025-12-01T14:40:31.174Z');
  // structlog's format_exc_info: the whole traceback in one field; the exception it ends with is the error.
  const traceback = (account: string): string => `Traceback (most recent call last):\n  File "/srv/worker.py", line 30, in run\n    res = charge(job)\n  File "/srv/worker.py", line 21, in charge\n    raise CardDeclined(f"card token expired for account {job['account']}")\nCardDeclined: card token expired for account ${account}`;
  const structlog = [1, 2].map((i) => JSON.stringify({ event: 'payment_failed', level: 'error', exception: traceback(`acct_${i}`) })).join('\n');
  const failed = await condense(`${structlog}\n${JSON.stringify({ event: 'payment_failed', level: 'error', exception: 'Traceback (most recent call last):\nTimeoutError: gateway' })}\n`);
  t.truthy(find(failed, 'payment_failed | CardDeclined: card token expired for account acct_<NUM>'), failed.groups.map((g) => g.template).join('\n'));
  t.truthy(find(failed, 'payment_failed | TimeoutError: gateway'));
  // The example shows that error with its values: the raw line is cut before it.
  t.is(find(failed, 'CardDeclined')!.exampleMore[0], 'CardDeclined: card token expired for account acct_1');
  t.is(find(failed, 'CardDeclined')!.exampleMoreLines, 0);
  t.is(find(failed, 'CardDeclined')!.exampleMore[1], '  File "/srv/worker.py", line 21, in charge', 'the innermost own frame of the traceback');
  // pino's lines after a build's output (no JSON at the input's start): still read as JSON,
  // the level its own, the error's first own frame from err.stack shown.
  const stack =
    'SyntaxError: Unexpected token } in JSON at position 122\n    at JSON.parse (<anonymous>)\n    at loadConfig (/srv/app/worker.js:11:15)\n    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n    at reload (/srv/app/worker.js:30:16)\n    at main (/srv/app/worker.js:52:3)';
  const pino = JSON.stringify({ level: 60, time: 1764600031174, msg: 'configuration reload failed, shutting down', err: { type: 'SyntaxError', message: 'Unexpected token } in JSON at position 122', stack } });
  const mixed = await condense(`> app@1.0.0 start\n> node worker.js\n\n${JSON.stringify({ level: 30, time: 1764600030174, msg: 'config loaded' })}\n${pino}\n`);
  const fatal = find(mixed, 'configuration reload failed, shutting down | SyntaxError')!;
  t.is(fatal.severity, 'critical');
  // The first own frame and its caller; not the runtime's frame between them, nor the caller's caller.
  t.deepEqual(fatal.exampleMore, ['SyntaxError: Unexpected token } in JSON at position 122', '    at loadConfig (/srv/app/worker.js:11:15)', '    at reload (/srv/app/worker.js:30:16)']);
  t.truthy(find(mixed, 'config loaded'));
  t.is(failed.totals.groups, 2);
});

test('a stack whose frames have no line under them shows the first own frame and its caller', async (t) => {
  const java = [
    '2025-12-01 10:00:00,000 INFO  [main] c.a.shop.Main - pricing 12 orders',
    '2025-12-01 10:00:01,000 ERROR [main] c.a.shop.Main - order 7 failed',
    'java.lang.IllegalStateException: no price for sku B-200',
    '\tat com.acme.shop.Pricing.priceOf(Pricing.java:42)',
    '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)',
    '\tat com.acme.shop.Order.total(Order.java:17)',
    '\tat com.acme.shop.Main.main(Main.java:9)',
  ].join('\n');
  const failed = find(await condense(`${java}\n`), 'order <NUM> failed')!;
  t.deepEqual(failed.exampleMore, ['java.lang.IllegalStateException: no price for sku B-200', '\tat com.acme.shop.Pricing.priceOf(Pricing.java:42)', '\tat com.acme.shop.Order.total(Order.java:17)']);
  t.is(failed.exampleMoreLines, 2);
  // Python's innermost frame keeps the source line under it, not its caller.
  const python = 'Traceback (most recent call last):\n  File "/srv/job.py", line 30, in run\n    total = ratio(a, b)\n  File "/srv/job.py", line 21, in ratio\n    return a / b\nZeroDivisionError: division by zero\n';
  const crash = find(await condense(python), 'ZeroDivisionError')!;
  t.true(crash.exampleMore.includes('  File "/srv/job.py", line 21, in ratio'));
  t.true(crash.exampleMore.includes('    return a / b'));
  t.false(crash.exampleMore.includes('  File "/srv/job.py", line 30, in run'));
});

test('a crash report among other files is summarised as a crash, before the log\'s groups', async (t) => {
  const dir = tempDir('crash-among');
  const log = writeTemp(dir, 'app.log', mixedLog(200));
  const crash = writeTemp(dir, 'MyApp-2026-12-01.ips', ips309Crash());
  const r = asLog(await condenseLog([fileSource(log), fileSource(crash)], { workers: 0 }));
  t.is(r.read.crashes?.length, 1);
  t.is(r.read.crashes![0]!.name, crash);
  t.truthy(r.read.crashes![0]!.report);
  t.falsy(r.groups.find((g) => g.template.includes('"exception"')), 'its JSON is no log line');
  const text = renderLogText(r, 10_000);
  t.true(text.indexOf('== crash report') < text.indexOf('\n#1 '));
  t.regex(text, /termination: /);
});

test('an input that fits one screen comes back whole, redacted and numbered; a larger one is condensed', async (t) => {
  const small = await condense('2026/12/01 10:00:00 starting\npanic: boom token=ghp_16C7e42F292c6912E7710c838347Ae178B4a\n');
  t.deepEqual(small.whole?.length, 2);
  const text = renderLogText(small, 10_000);
  t.regex(text, /^1\| 2026\/12\/01 10:00:00 starting$/m);
  t.regex(text, /^2\| panic: boom token=\[REDACTED/m);
  t.false(text.includes('16C7e42F292c'));
  const large = await condense(mixedLog(100));
  t.is(large.whole, undefined);
});

test('a small input is shown whole only when its numbered lines fit one screen (4 KB)', async (t) => {
  // 2.9 KB read, but 600 numbered lines render past 4 KB: the groups say more.
  const many = await condense('ok\n'.repeat(600).slice(0, 2900));
  t.truthy(many.whole, 'small enough to be kept whole');
  t.false(renderLogText(many, 10_000).includes('here it is whole'));
  const few = await condense('starting\ndone\n');
  t.true(renderLogText(few, 10_000).includes('here it is whole'));
});

test('a count of none is no error, nor is a word inside a path; a count of some is', async (t) => {
  const lines: [string, string][] = [
    ['Tests run: 5, Failures: 0, Errors: 0, Skipped: 0', 'info'],
    ['# fail 0', 'info'],
    ['localhost : ok=3 changed=0 unreachable=0 failed=0', 'info'],
    ['Found 0 errors. Watching for file changes.', 'info'],
    ['no errors, no warnings', 'info'],
    ['rootdir: /tmp/build/pytest-fail', 'info'],
    ['GET https://ci.example.test/api/errors/recent 200', 'info'],
    ['Tests run: 5, Failures: 1, Errors: 0, Skipped: 0', 'error'],
    ['3 failed, 7 passed in 0.88s', 'error'],
    ['errors: 2', 'error'],
    ['cannot open /var/lib/app/fail.db', 'error'],
    // What a program dies of, in words without a level: perl's die, a signal's name as a shell reports it.
    ['Illegal division by zero at report.pl line 10, <$fh> line 49.', 'error'],
    ['thread 2: attempt to divide by zero', 'error'],
    ['bash: line 1:  2959 Illegal instruction     ./decode frame.bin', 'critical'],
    ['bash: line 1:  3001 Bus error               ./mmap-reader', 'critical'],
    ['*** stack smashing detected ***: terminated', 'critical'],
    ['free(): double free detected in tcache 2', 'critical'],
    ['the divisor is zero by default', 'info'],
    ['Thread #3: lock order "0x10C080 before 0x10C0C0" violated', 'error'],
    ['duplicate key value violates unique constraint "users_email_key"', 'error'],
    ['checked 40 rules: no violations', 'info'],
    ['  inflating: out/plugin/lib/mod41.js   bad CRC 07902910  (should be 035872f5)', 'error'],
    ['gzip: stdin: unexpected end of file; archive is corrupt', 'error'],
    ['fsck: no corruption found', 'info'],
  ];
  for (const [line, severity] of lines) {
    const r = await condense(`${line}\n`);
    t.is(r.groups[0]?.severity as string | undefined, severity, line);
  }
});

test('a program\'s error line after a line that announces more is a record of its own, with its level', async (t) => {
  const text = [
    '2026-12-01 10:00:00,001 INFO build: compiling:',
    'gcc: error: main.c: No such file or directory',
    '2026-12-01 10:00:01,001 INFO build: next step:',
    'src/app.c:3:10: fatal error: config.h: No such file or directory',
    '2026-12-01 10:00:02,001 INFO build: cargo says:',
    'error[E0308]: mismatched types',
    '2026-12-01 10:00:03,001 INFO build: lint:',
    'eslint: warning: 3 rules are deprecated',
    '',
  ].join('\n');
  const r = await condense(text);
  t.is(find(r, 'gcc: error: main.c')?.severity, 'error');
  t.is(find(r, 'fatal error: config.h')?.severity, 'critical');
  t.is(find(r, ']: mismatched types')?.severity, 'error');
  t.is(find(r, 'eslint: warning')?.severity, 'warning');
  t.is(r.linesBySeverity.info, 4, 'the INFO lines keep only their own line');
});

test('npm\'s error message, every line prefixed `npm error`, is one record; its warnings stay apart', async (t) => {
  const npm = await condense(real('npm-ci-mismatch.log'));
  t.is(npm.totals.records, 1);
  t.is(npm.groups[0]!.template, 'npm error code EUSAGE');
  t.true(npm.groups[0]!.exampleMore.some((l) => l.startsWith('npm error Missing: ms@2.1.3 from lock file')));
  const warn = await condense('npm warn deprecated inflight@1.0.6: leaks memory\nnpm warn deprecated glob@7.2.3: no longer supported\nnpm error code E404\nnpm error 404 Not Found - GET https://registry.example.test/x\n');
  t.is(warn.totals.records, 3);
});

test('under npm\'s prefix, the lines that say what failed by their own words are shown, and what they announce; a bare prefix is a blank line', async (t) => {
  const npm = await condense(real('npm-install-eresolve.log'));
  t.is(npm.totals.records, 1);
  const shown = npm.groups[0]!.exampleMore;
  // Every line says `error` by its prefix; past it, these two say what went wrong, and the second is what the first announces.
  t.true(shown.includes('npm error Could not resolve dependency:'), shown.join('\n'));
  t.true(shown.includes('npm error peer widget-core@"^2.0.0" from widget-dom@2.0.0'), shown.join('\n'));
  // Then the first of the others, as room allows: the version it found.
  t.true(shown.includes('npm error Found: widget-core@1.0.0'), shown.join('\n'));
  t.false(shown.includes('npm error'), 'no bare prefix line');
  t.true(shown.length <= 8);
  // Without a prefix the same words are no announced failure: the line after is not taken for its value.
  const plain = await condense('2026-01-01 10:00:00 ERROR install failed\n  Could not resolve dependency:\n  node_modules/a\n  peer b from c\n');
  t.false(plain.groups[0]!.exampleMore.some((l) => l.includes('node_modules/a')), plain.groups[0]!.exampleMore.join('\n'));
});

test('a trouble word hyphens join inside a name is no trouble: a CI job installing libgpg-error-dev is not failing', async (t) => {
  const job = [
    'Unpacking libgpg-error-dev:amd64 (1.46-1) ...',
    'Setting up golang-github-pkg-errors-dev (0.9.1-2) ...',
    'x doc/libgpg-error-dev/changelog.Debian.gz',
    'Selecting previously unselected package libfailsafe-crash-handler-dev.',
    'Setting up libgpg-error-dev:amd64 (1.46-1) ...',
    'codec_test: codec_test.c:19: check_roundtrip: Assertion `out_len == in_len\' failed.',
  ].join('\n');
  const r = await condense(`${job}\n`, { top: 10 });
  t.deepEqual(r.groups.filter((g) => g.severity !== 'info').map((g) => g.example), ['codec_test: codec_test.c:19: check_roundtrip: Assertion `out_len == in_len\' failed.']);
  // Alone or at a name's end, the word keeps its sense.
  const said = await condense('step build-failed\nconnection-error on 10.0.0.1\nerror-free run\n', { top: 10 });
  t.is(said.groups.filter((g) => g.severity === 'error').length, 3);
});

test('a coloured line\'s words are read without its colours: tsc --pretty\'s errors are errors, as without colours', async (t) => {
  const coloured = real('tsc-pretty.log');
  t.true(coloured.includes('\x1b[91merror\x1b[0m'), 'the fixture is coloured');
  const levels = (r: LogResult): string[] => r.groups.map((g) => `${g.severity} ${g.count} ${g.example.replace(/\x1b\[[0-9;]*m/g, '')}`);
  const r = await condense(coloured);
  const plain = await condense(coloured.replace(/\x1b\[[0-9;]*m/g, ''));
  t.deepEqual(levels(r), levels(plain));
  const missing = r.groups.find((g) => g.example.includes('TS2305'));
  t.is(missing?.severity, 'error');
  t.is(missing?.count, 4);
  t.is(r.groups[0], missing, 'ranked first');
});

test('a coloured continuation line\'s words are read without colours too: the one eslint block with an error is an error group, shown', async (t) => {
  const log = real('eslint-color.log');
  t.true(log.includes('\x1b[31merror\x1b[39m'), 'the fixture is coloured');
  const r = await condense(log);
  const failing = r.groups.find((g) => g.exampleMore.some((l) => l.includes("'taxRate' is not defined")));
  t.is(failing?.severity, 'error', JSON.stringify(r.groups.map((g) => [g.severity, g.count, g.example])));
  t.is(failing?.count, 1);
  t.true(r.groups.some((g) => g.severity === 'warning' && g.count === 11), 'the warnings-only blocks are one warning group');
  // The colour codes alone between files (`\x1b[0m\x1b[0m`) are blank lines, as without colours: no empty group.
  t.false(r.groups.some((g) => g.template.trim() === ''), JSON.stringify(r.groups.map((g) => g.template)));
  t.is(r.totals.records, (await condense(log.replace(/\x1b\[[0-9;]*m/g, ''))).totals.records);
});

test('a line the reader reads as blank is blank for the chunker too (colour codes alone, a checker\'s prefix alone): a line announced over it goes on with its record in any chunking', async (t) => {
  // The same failure printed plainly with colour codes between, and under valgrind's `==7== ` prefix with the prefix alone between.
  for (const [blank, prefix] of [['\x1b[0m\x1b[0m', ''], ['==7==', '==7== ']] as const) {
    const block = (i: number): string => [`${prefix}step ${i}: build failed with these errors:`, blank, `${prefix}missing file config-${i % 3}.yaml`, `2026-01-01 10:00:${String(i % 60).padStart(2, '0')} INFO step ${i} done`].join('\n');
    const text = `${Array.from({ length: 40 }, (_, i) => block(i)).join('\n')}\n`;
    const reference = await condense(text);
    const failed = reference.groups.find((g) => g.template.includes('build failed'))!;
    t.is(failed.lines, 3 * 40, `${JSON.stringify(blank)}: the announced line is part of the failure, the line between is blank`);
    t.false(reference.groups.some((g) => g.template.includes('missing file') && !g.template.includes('build failed')), 'no record of its own');
    for (const chunkBytes of [1, 7, 64, 333]) t.is(JSON.stringify(await condense(text, { workers: 2, chunkBytes })), JSON.stringify(reference), `${JSON.stringify(blank)}, chunkBytes ${chunkBytes}`);
  }
});

test('a JVM crash\'s banner names its signal and its problematic frame as critical, ranked before the log it ends', async (t) => {
  const r = await condense(real('jvm-crash.log'));
  const top = r.groups.slice(0, 3);
  t.true(top.every((g) => g.severity === 'critical'), top.map((g) => `${g.severity} ${g.example}`).join('\n'));
  t.truthy(top.find((g) => g.example.startsWith('#  SIGSEGV (0xb) at pc=')));
  const frame = top.find((g) => g.example === '# Problematic frame:');
  t.true(frame?.exampleMore.some((l) => l.includes('Unsafe_GetLong')), JSON.stringify(frame));
  // A line that only mentions a signal handler's name still reads as it did: a process that handles SIGTERM is no crash.
  t.is((await condense('2026-01-01 10:00:00 info: installed handler for SIGTERM\n')).groups[0]!.severity, 'info');
});

test('the header says how many groups are printed when the text budget cuts, and says why', async (t) => {
  const r = await condense(real('noisy-service.log') + real('pytest-fail.log'), { top: 30 });
  t.true(r.groups.length >= 20);
  for (const budget of [2500, 4000, 6000]) {
    const text = renderLogText(r, budget);
    t.true(text.length <= budget, `${text.length} <= ${budget}`);
    const printed = (text.match(/^#\d+ /gm) ?? []).length;
    const said = Number(/showing (\d+)/.exec(text)![1]);
    t.is(said, printed, text.split('\n')[1]);
    t.regex(text, new RegExp(`\\(${r.groups.length - printed} more of the ${r.groups.length} groups chosen left out to stay within`));
  }
});

test('compilers: a position with no level is an error, `note:` is a notice, and rustc\'s source excerpt stays with its message, its label shown', async (t) => {
  const go = await condense(real('go-build-fail.log'));
  t.is(find(go, 'imported and not used')?.severity, 'error');
  t.is(find(go, 'undefined: undefinedHelper')?.severity, 'error');
  const rust = await condense(real('cargo-build-fail.log'));
  // Two `mismatched types` errors whose labels differ are two events, each shown with its label.
  const mismatches = rust.groups.filter((g) => g.template.includes(']: mismatched types'));
  t.is(mismatches.length, 2, mismatches.map((g) => g.template).join('\n'));
  for (const m of mismatches) {
    t.is(m.severity, 'error');
    t.is(m.count, 1);
    t.true(m.lines >= 8, 'each diagnostic is one record, its excerpt lines included');
  }
  for (const label of ['expected `u64`, found `f64`', 'expected `&str`, found `Option<&u64>`']) {
    t.truthy(mismatches.find((m) => m.exampleMore.some((l) => l.includes(label)) && m.template.endsWith(label.replace(/\d+/g, '<NUM>'))), label);
  }
  t.falsy(rust.groups.find((g) => /^\d+ \| /.test(g.template)), 'no excerpt line is a record of its own');
  // shellcheck's labels have no gutter: each finding is one record with its line and label,
  // and the level the label names decides it.
  const sc = await condense(real('shellcheck-findings.log'));
  const loop = sc.groups.find((g) => g.exampleMore.some((l) => l.includes('SC2045 (error)')))!;
  t.truthy(loop, sc.groups.map((g) => g.template).join('\n'));
  t.is(loop.severity, 'error');
  t.true(loop.template.startsWith('In deploy.sh line'), loop.template);
  t.true(loop.exampleMore.some((l) => l.startsWith('for f in $(ls *.tar.gz)')), 'the code it marks');
  t.falsy(sc.groups.find((g) => /^\s*\^-/.test(g.template)), 'no label is a record of its own');
  t.is(sc.groups.filter((g) => g.template.startsWith('In deploy.sh line')).length, 7, 'seven findings, seven groups');
  const note = await condense('2026-12-01 10:00:00 INFO build:\nm.cpp:6:10: note: candidate template ignored: substitution failed\n');
  t.is(find(note, 'candidate template ignored')?.severity, 'notice');
  const git = await condense('Auto-merging src/config.yml\nCONFLICT (content): Merge conflict in src/config.yml\n');
  t.is(find(git, 'CONFLICT')?.severity, 'error');
});

test('the errors a noisy input ends with come first, under one heading, no more of them than the groups asked for', async (t) => {
  const noiseRun = real('noisy-service.log');
  let noise = '';
  while (noise.split('\n').length < 2000) noise += noiseRun;
  const text = noise + real('pytest-fail.log');
  const r = await condense(text, { top: 30 });
  const late = r.groups.filter((g) => g.late !== undefined);
  t.true(late.length > 0 && late.length <= 8);
  t.deepEqual(r.groups.slice(0, late.length), late, 'they lead');
  t.true(late.every((g, i) => i === 0 || g.firstLine > late[i - 1]!.firstLine), 'in line order');
  t.true(late.every((g) => g.severity === 'error' || g.severity === 'critical'));
  t.true(late.every((g) => g.firstLine > g.late!.after));
  const rendered = renderLogText(r, 10_000);
  t.is(rendered.split('the errors the input ends with, begun after line').length - 1, 1);
  t.regex(rendered, /then the groups by rank:\n\n#1 /);
  const few = await condense(text, { top: 2 });
  t.true(few.groups.filter((g) => g.late !== undefined).length <= 2);
  // Alone, with nothing noisy before it, the output is ranked as before: nothing is moved.
  t.is((await condense(real('pytest-fail.log'))).groups.filter((g) => g.late !== undefined).length, 0);
});

test('a lone letter on a line without the header is no level (pytest\'s `F  [100%]` progress line); a bracketed one still is', async (t) => {
  const r = await condense(`2026-12-01 10:00:00,001 INFO run: starting\nF${' '.repeat(72)}[100%]\n2026-12-01 10:00:01,001 INFO run: done\n[E] disk full\n`);
  t.is(find(r, '[<NUM>%]')?.severity, 'info');
  t.is(find(r, 'disk full')?.severity, 'error');
  t.is(r.linesBySeverity.critical, 0);
});

test('chunks are re-cut at record starts; a chunk that starts one goes on whole, its own buffer, without a copy', async (t) => {
  const { recordChunks } = await import('../src/log/read/record-chunks.js');
  const { lineChunks } = await import('../src/split/line-chunks.js');
  const { detectFormat } = await import('../src/log/read/detect.js');
  const { transferable } = await import('../src/pipeline/worker-pool.js');
  /** The buffers lineChunks made: a chunk passed on as it is holds one of them whole. */
  const made = new Set<ArrayBufferLike>();
  const cut = async (text: string, chunkBytes: number): Promise<Buffer[]> => {
    const info = detectFormat(text.slice(0, 64 * 1024));
    async function* source(): AsyncGenerator<{ info: typeof info; chunk: Buffer }> {
      async function* bytes(): AsyncGenerator<Buffer> {
        yield Buffer.from(text);
      }
      for await (const chunk of lineChunks(bytes(), { chunkBytes })) {
        made.add(chunk.buffer);
        yield { info, chunk };
      }
    }
    const out: Buffer[] = [];
    for await (const { chunk } of recordChunks(source(), { cutRecords: 0 })) out.push(chunk);
    return out;
  };
  // Mostly one record a line: a chunk whose first line starts a record waits whole and goes as it is.
  const flat = mixedLog(3000);
  const flatChunks = await cut(flat, 8192);
  t.is(Buffer.concat(flatChunks).toString(), flat);
  const asMade = flatChunks.filter((c) => made.has(c.buffer) && transferable(c) === c.buffer).length;
  t.true(asMade >= 0.7 * flatChunks.length, `${asMade} of ${flatChunks.length} chunks go on as lineChunks made them`);
  // Multi-line records across chunk ends: each chunk still starts where a record does.
  const java = javaServiceLog(600);
  for (const chunkBytes of [700, 4096, 20_000]) {
    const chunks = await cut(java, chunkBytes);
    t.is(Buffer.concat(chunks).toString(), java, String(chunkBytes));
    t.true(chunks.every((c) => /^\d{4}-\d\d-\d\d/.test(c.toString('latin1', 0, 10))), `chunkBytes ${chunkBytes}: every chunk starts with a record's header`);
  }
});

test('chunks joined at a record that spans them are joined in a slot, and the slots they were read into are free again', async (t) => {
  const { recordChunks } = await import('../src/log/read/record-chunks.js');
  const { lineChunks, slotBytesFor } = await import('../src/split/line-chunks.js');
  const { Slots } = await import('../src/split/slots.js');
  const { detectFormat } = await import('../src/log/read/detect.js');
  const java = javaServiceLog(600);
  const info = detectFormat(java.slice(0, 64 * 1024));
  const chunkBytes = 4096;
  const slots = new Slots(slotBytesFor(chunkBytes, 1024));
  async function* source(): AsyncGenerator<{ info: typeof info; chunk: Buffer }> {
    async function* bytes(): AsyncGenerator<Buffer> {
      yield Buffer.from(java);
    }
    for await (const chunk of lineChunks(bytes(), { chunkBytes, maxLineBytes: 1024, slots })) yield { info, chunk };
  }
  const texts: string[] = [];
  /** Chunks of a chunk's size or more that are no slot: a join made in fresh memory. */
  const fresh: number[] = [];
  for await (const { chunk } of recordChunks(source(), { cutRecords: 0 }, slots)) {
    texts.push(chunk.toString('latin1'));
    const inSlot = chunk.buffer instanceof SharedArrayBuffer && chunk.buffer.byteLength === slots.slotBytes;
    // The lines after a chunk's last record start are copied (they are few); they go alone where the next chunk starts a record.
    if (!inSlot && chunk.length >= chunkBytes) fresh.push(chunk.length);
    // The taker's part, as the dispatcher does it once a chunk's result is taken.
    slots.release(chunk.buffer);
  }
  t.is(texts.join(''), java);
  t.true(texts.every((c) => /^\d{4}-\d\d-\d\d/.test(c)), 'every chunk starts with a record header');
  t.deepEqual(fresh, [], 'every chunk of a chunk\'s size, joined or not, is a slot');
  // Read one at a time, a chunk's slot comes back before the next is filled: a join that
  // dropped the slots it copied would have made the reader take a new one each time.
  t.true(slots.made <= 4, `${slots.made} slots made for ${texts.length} chunks`);
});

test('a BSD syslog is labelled syslog; java.util.logging, whose time also begins with a month\'s name, a timestamped log', async (t) => {
  const { detectFormat } = await import('../src/log/read/detect.js');
  t.is(detectFormat(real('java-jul.log').slice(0, 64 * 1024)).label, 'timestamped log');
  t.is(detectFormat(plainSyslog(200).slice(0, 64 * 1024)).label, 'syslog');
  t.is(detectFormat('Jun  4 08:00:01 host cron[12]: job started\nJun 14 08:00:02 host cron[12]: job done\n').label, 'syslog');
});

test('the format is decided from the first 64 KB whatever the chunks, and the chunks flow on as they came', async (t) => {
  const { withFormat, DETECT_BYTES } = await import('../src/log/read/detect.js');
  const random = seededRandom(41);
  const all = Buffer.from(mixedLog(3_000));
  t.true(all.length > 3 * DETECT_BYTES);
  for (const input of [all, all.subarray(0, DETECT_BYTES - 17), all.subarray(0, DETECT_BYTES), all.subarray(0, DETECT_BYTES + 1)]) {
    const seen: Buffer[] = [];
    const decide = (head: Buffer) => {
      seen.push(Buffer.from(head));
      return { format: 'plain' } as never;
    };
    // One chunk, chunks of random sizes, and chunks of a byte or two at the start.
    const cuts = [[input.length], Array.from({ length: 40 }, () => 1 + Math.floor(random() * 9_000)), [1, 2, 1, ...Array.from({ length: 30 }, () => 30_000)]];
    for (const sizes of cuts) {
      const chunks: Buffer[] = [];
      for (let at = 0, k = 0; at < input.length; k++) {
        const n = sizes[k % sizes.length]!;
        chunks.push(input.subarray(at, at + n));
        at += n;
      }
      async function* source() {
        yield* chunks;
      }
      const out: Buffer[] = [];
      for await (const { chunk } of withFormat(source(), decide)) out.push(chunk);
      t.deepEqual(out, chunks);
    }
    t.is(seen.length, 3);
    for (const head of seen) t.deepEqual(head, input.subarray(0, DETECT_BYTES));
  }
});

test("a line's shape is the same asked again, after other lines and after the answers kept are cleared", async (t) => {
  const { shapeOf, indentOf, isRuntimeFrame } = await import('../src/log/parse/line-shape.js');
  const dir = join(ROOT, 'fixtures', 'real', 'out');
  const { readdirSync } = await import('node:fs');
  const lines = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'latin1').split('\n'));
  const ask = (line: string) => {
    const b = Buffer.from(line, 'latin1');
    const indent = indentOf(b, 0, b.length);
    const { shape, severity } = shapeOf(line.slice(0, 512), indent, { shape: -1, severity: -1 as never });
    return `${shape}/${severity}/${isRuntimeFrame(line.slice(0, 512))}`;
  };
  const first = lines.map(ask);
  // Indented lines of other severities, asked in turn: a kept answer carries its own.
  const frame = '    at handler (/srv/app/api.js:88:5)';
  // Lines are read as latin1 text of their bytes: ava's mark as its UTF-8 bytes.
  const failed = Buffer.from('  \u2718 [fail]: keeps "=" inside a value', 'utf8').toString('latin1');
  const panic = '\tpanic: runtime error: slice bounds out of range';
  const answers = [frame, failed, panic].map(ask);
  t.is(new Set(answers.map((a) => a.split('/')[1])).size, 3, answers.join(' '));
  // Enough asks of lines that repeat for answers to be kept again (after lines that do not
  // repeat, none are kept for a while), then the answers kept, asked in another order.
  for (let k = 0; k < 70_000; k++) ask([frame, failed, panic][k % 3]!);
  for (let k = 0; k < 3; k++) t.deepEqual([frame, failed, panic, frame, panic, failed].map(ask), [...answers, answers[0], answers[2], answers[1]]);
  t.deepEqual(lines.map(ask), first);
  // More lines than are kept: the answers are computed again, the same.
  for (let k = 0; k < 9_000; k++) ask(`    at f${k} (/srv/app/x.js:${k}:1)`);
  t.deepEqual(lines.map(ask), first);
});

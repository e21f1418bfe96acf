/**
 * What a template shows beyond its text: the rare line that explains a burst, the values
 * behind its placeholders, enum variations of one event folded on screen.
 */
import test from 'ava';
import { condenseLog } from '../src/log/index.js';
import type { LogResult } from '../src/log/model/result.js';
import { renderLogText } from '../src/log/render/log-text.js';
import { textSource } from '../src/input/sources.js';
import { configChangeIncidentLog, mixedLog } from '../fixtures/logs.js';
import { runCli, tempDir, writeTemp } from './helpers.js';

const incident = configChangeIncidentLog();

async function condense(text: string, workers = 0): Promise<LogResult> {
  const r = await condenseLog([textSource('service.log', text)], { workers, chunkBytes: workers === 0 ? undefined : 64 * 1024 });
  if (r.kind !== 'log') throw new Error('not a log');
  return r;
}

test('a low-severity config change before a burst of errors is shown with why, though ranking leaves it out', async (t) => {
  const r = await condense(incident.text);
  const burst = r.groups.find((g) => g.template.includes('pool timeout acquiring connection'))!;
  t.is(burst.severity, 'error');
  const change = r.groups.find((g) => g.template.includes('config_reload'));
  t.truthy(change, 'the change is shown');
  t.true(change!.rank > 30, 'ranking alone would leave it out');
  t.is(change!.rare?.beforeRank, burst.rank);
  t.true(change!.rare!.shared.includes('orders-ro'));
  t.is(r.groups[r.groups.indexOf(burst) + 1], change, 'right after the burst');
  const text = renderLogText(r, 10_000);
  t.regex(text, /rare \(1 record\), 2\.7 min before the burst of #1 .*pool timeout.* \(47 records\) begins, shares 'orders-ro'/);
  t.regex(text, /and 1 rare group for the bursts it precedes/);
  t.true(text.indexOf('config_reload') < 4096, 'in the first screen');
});

test('nothing is claimed before a burst that follows no rare line, nor for a log without bursts', async (t) => {
  const quiet = await condense(mixedLog(5_000));
  t.falsy(quiet.groups.find((g) => g.rare !== undefined));
  const withoutChange = incident.text.replace(`${incident.change}\n`, '');
  const r = await condense(withoutChange);
  t.falsy(r.groups.find((g) => g.rare !== undefined));
});

test('a rare line that shares with a burst only the fields before its message (thread, logger) is not claimed for it', async (t) => {
  let log = '';
  // Forty kinds of routine line, so that ranking leaves the rare one out.
  const word = (j: number): string => `${String.fromCharCode(97 + (j % 26))}${String.fromCharCode(97 + ((j * 7) % 26))}ing`;
  const kinds = Array.from({ length: 45 }, (_, k) => Array.from({ length: k + 1 }, (_, j) => word(j)).join(' '));
  for (let i = 0; i < 300; i++) log += `2015-10-18 18:0${Math.floor(i / 60)}:${String(i % 60).padStart(2, '0')},100 INFO [main] org.example.web.RequestLog: ${kinds[i % kinds.length]} for request ${i} in ${i % 40} ms\n`;
  log += '2015-10-18 18:05:10,034 INFO [Allocator] org.example.rm.ContainerAllocator: Received completed container c_17\n';
  for (let i = 0; i < 20; i++) log += `2015-10-18 18:05:${String(20 + i)},100 INFO [main] org.example.web.RequestLog: ${kinds[i]} for request ${i} in 3 ms\n`;
  for (let i = 0; i < 40; i++) log += `2015-10-18 18:06:${String(i).padStart(2, '0')},840 ERROR [Allocator] org.example.rm.ContainerAllocator: ERROR IN CONTACTING RM.\n`;
  const r = await condense(log);
  t.true(r.groups.some((g) => g.template.includes('ERROR IN CONTACTING RM') && g.count === 40));
  t.true(r.totals.groups > 40);
  t.falsy(r.groups.find((g) => g.rare !== undefined), JSON.stringify(r.groups.find((g) => g.rare !== undefined)?.rare));
  // The same line with a word of the burst's own message in its message is claimed.
  const r2 = await condense(log.replace('Received completed container c_17', 'RM address changed to rm-2, CONTACTING it next'));
  t.true(r2.groups.find((g) => g.rare !== undefined)?.rare?.shared.includes('CONTACTING'));
  // A level's name is no such word: any error line of the program may say it.
  const r3 = await condense(log.replace('Received completed container c_17', 'Slow read: ack status: ERROR downstream'));
  t.falsy(r3.groups.find((g) => g.rare !== undefined), JSON.stringify(r3.groups.find((g) => g.rare !== undefined)?.rare));
});

test('a group whose errors all come from one host says so in its values line', async (t) => {
  const r = await condense(incident.text);
  const burst = r.groups.find((g) => g.template.includes('pool timeout'))!;
  const host = burst.values?.find((v) => v.placeholder.startsWith('host='));
  t.deepEqual(host?.values, [{ value: `host=${incident.burstHost}`, count: 47 }]);
  t.regex(renderLogText(r, 10_000), new RegExp(`values: host=.*: host=${incident.burstHost} x47`));
  // Spread over three hosts, the ordinary events list each with its count.
  const orders = r.groups.find((g) => g.template.includes('order ord-'))!;
  const hosts = orders.values!.find((v) => v.values.some((x) => x.value.startsWith('host=')))!;
  t.is(hosts.values.length, 3);
  t.is(hosts.values.reduce((n, v) => n + v.count, 0) + hosts.otherRecords, orders.count);
});

test('a value of a token that holds other placeholders too is shown in its place among them, so it says which it is', async (t) => {
  let text = '';
  for (let i = 0; i < 60; i++) text += `2026-12-06T02:15:${String(i % 60).padStart(2, '0')}.097Z [clip_${i % 7}.mp4] resized frame ${i} of clip_${i % 7}.mp4 (1920x1080 -> 640x360)\n`;
  const r = await condense(text);
  const g = r.groups.find((x) => x.template.includes('resized frame'))!;
  const clip = g.values!.find((v) => v.placeholder === '[clip_<NUM>.mp<NUM>]')!;
  // mp4's 4 (one value) is the placeholder picked; it stands where it is, not as a bare `4`.
  t.deepEqual(clip.values, [{ value: '[clip_<NUM>.mp4]', count: 60 }]);
  const size = g.values!.find((v) => v.placeholder.startsWith('(<NUM>x<NUM>'))!;
  t.is(size.values[0]!.value, '(1920x<NUM>');
  t.regex(renderLogText(r, 10_000), /values: \[clip_<NUM>\.mp<NUM>\]: \[clip_<NUM>\.mp4\] x60/);
});

test('enum variations of one event are one group on screen, each word counted', async (t) => {
  const r = await condense(incident.text);
  const orders = r.groups.filter((g) => g.template.includes('order ord-'));
  t.is(orders.length, 1);
  t.regex(orders[0]!.template, /state <[a-z|]+> -> <[a-z|]+>/);
  const states = orders[0]!.values!.find((v) => v.placeholder.startsWith('state'))!;
  t.is(states.values.length + states.others, 4);
});

test('the same incident log gives the same bytes with --workers 1 and --workers 2', async (t) => {
  const file = writeTemp(tempDir('incident'), 'service.log', incident.text);
  const [one, two] = await Promise.all([
    runCli(['log', file, '--workers', '1', '--chunk-bytes', '32K']),
    runCli(['log', file, '--workers', '2', '--chunk-bytes', '200K']),
  ]);
  t.is(one.code, 0, one.stderr);
  t.is(one.stdout, two.stdout);
  t.regex(one.stdout, /config_reload/);
});

test('a redaction marker survives templating as it is: its kind is a word, not a number', async (t) => {
  const lines = Array.from({ length: 40 }, (_, i) => `2024-01-01T10:00:${String(i).padStart(2, '0')}Z ERROR login from 81.22.33.${i + 1} refused for user ${i}`);
  const r = await condense(`${lines.join('\n')}\n`);
  const group = r.groups.find((g) => g.template.includes('login from'))!;
  t.true(group.template.includes('login from [REDACTED:ipv4] refused for user <NUM>'), group.template);
});

/**
 * A cascade as a service logs it: routine lines, one root failure (`root`, `rootTimes` records),
 * then `kinds` jobs each failing six times, interleaved, beginning `gapMinutes` after it.
 */
function cascadeLog(o: { root: string; rootTimes?: number; kinds?: number; gapMinutes?: number; linesBetween?: number; errorsBefore?: boolean }): string {
  const lines: string[] = [];
  let second = 0;
  const at = (extraMinutes = 0): string => new Date(Date.UTC(2026, 0, 5, 9, extraMinutes, 0) + second++ * 1000).toISOString();
  // Another part of the system failing before, and all along: a one-off error, and one that recurs more than any.
  if (o.errorsBefore) lines.push(`${at()} ERROR [disk] smart check of sda1 failed: reallocated sectors`);
  const heartbeat = (i: number): void => {
    if (o.errorsBefore) lines.push(`${at()} ERROR [net] heartbeat to peer ${i % 3} lost`);
  };
  for (let i = 0; i < 30; i++) {
    lines.push(`${at()} INFO [boot] module m${i} started in ${i * 7} ms`);
    heartbeat(i);
  }
  for (let i = 0; i < (o.rootTimes ?? 1); i++) lines.push(`${at()} ERROR [db.pool] ${o.root}`, `${at()} INFO [boot] retrying later`);
  for (let i = 0; i < (o.linesBetween ?? 0); i++) lines.push(`${at()} INFO [http] served /status in ${i % 9} ms`);
  const jobs = ['cart sync', 'order export', 'stock poll', 'index refresh', 'mail digest', 'price feed', 'audit roll'].slice(0, o.kinds ?? 6);
  for (let run = 1; run <= 6; run++) {
    jobs.forEach((job, k) => {
      lines.push(`${at(o.gapMinutes)} ERROR [jobs.${job.split(' ')[0]}] ${job} run ${run} failed: ${['no connection', 'pool empty', 'cannot borrow', 'timed out waiting', 'gave up', 'aborted', 'skipped'][k]}`);
    });
    heartbeat(run);
  }
  return `${lines.join('\n')}\n`;
}

test('the one-off error a cascade begins with is shown first when its recurring consequences rank above it', async (t) => {
  const text = cascadeLog({ root: 'pool store: initialization failed: connection refused' });
  const r = await condense(text);
  const root = r.groups[0]!;
  t.true(root.template.includes('initialization failed'), root.template);
  t.true(root.rank > 5, 'ranking alone puts it past the first ranks');
  t.deepEqual(root.first, { errorsAfter: 6, lead: '2.0 s', shared: ['connection', 'pool'] });
  // Then the others by rank; the rare line just before the jobs' failures (`retrying later`) right after its burst.
  const rest = r.groups.slice(1);
  const rare = rest.filter((g) => g.rare !== undefined);
  t.deepEqual(rare.map((g) => g.example.slice(g.example.indexOf('INFO'))), ['INFO [boot] retrying later']);
  t.is(rest[rest.indexOf(rare[0]!) - 1]!.rank, rare[0]!.rare!.beforeRank);
  t.deepEqual(rest.filter((g) => g.rare === undefined).map((g) => g.rank), Array.from({ length: r.groups.length }, (_, i) => i + 1).filter((rank) => rank !== root.rank && rank !== rare[0]!.rank), 'then the others by rank');
  const shown = renderLogText(r, 10_000);
  t.regex(shown, /ranked by severity, then count, the one-off error before the recurring ones first, and 1 rare group for the bursts it precedes\n/);
  t.regex(shown, /\nthe one-off error before the recurring ones: 6 recurring error groups ranked above it begin after it, the first 2\.0 s after; it shares 'connection', 'pool' with them:\n\n#\d+ ERROR x1 /);
  t.regex(shown, /\nthen the groups by rank:\n\n#1 ERROR x6 /);
  t.true(shown.indexOf('initialization failed') < 2048);
  const file = writeTemp(tempDir('cascade'), 'service.log', text);
  const [one, two] = await Promise.all([runCli(['log', file]), runCli(['log', file, '--workers', '2', '--chunk-bytes', '700'])]);
  t.is(one.stdout, two.stdout, 'the same bytes for any chunking');
  t.true(one.stdout.indexOf('initialization failed') < one.stdout.indexOf('#1 ERROR'));
});

test('the one-off error is not moved when it recurs, ranks among the first, or comes long before', async (t) => {
  const root = 'pool store: initialization failed: connection refused';
  for (const [why, log] of [
    ['it recurs', cascadeLog({ root, rootTimes: 4 })],
    ['it ranks among the first five already', cascadeLog({ root, kinds: 4 })],
    ['the errors after it begin 20 minutes later', cascadeLog({ root, gapMinutes: 20 })],
  ] as const) {
    const r = await condense(log);
    t.falsy(r.groups.find((g) => g.first !== undefined), why);
    t.false(renderLogText(r, 10_000).includes('the one-off error'), why);
  }
});

test('a one-off error some lines before the recurring ones is moved only when it shares a distinctive word with them', async (t) => {
  const apart = await condense(cascadeLog({ root: 'replica lag check failed', linesBetween: 40 }));
  t.true(apart.groups.some((g) => g.template.includes('replica lag')), 'shown by rank');
  t.falsy(apart.groups.find((g) => g.first !== undefined), 'nearness alone is weak evidence');
  const sharing = await condense(cascadeLog({ root: 'initialization failed: connection refused, the pool is empty', linesBetween: 40 }));
  t.true(sharing.groups[0]!.template.includes('initialization failed'), sharing.groups[0]!.template);
  t.deepEqual(sharing.groups[0]!.first?.shared, ['connection', 'empty', 'pool']);
});

test('errors before the cascade, one-off or recurring all along, do not stand in the way of the one it begins with', async (t) => {
  const r = await condense(cascadeLog({ root: 'pool store: initialization failed: connection refused', errorsBefore: true }));
  t.true(r.groups[1]!.template.includes('heartbeat'), 'the error recurring all along ranks first');
  const root = r.groups[0]!;
  t.true(root.template.includes('initialization failed'), root.template);
  t.is(root.first?.errorsAfter, 6, 'the recurring errors that begin after it');
  t.true(r.groups.some((g) => g.template.includes('smart check') && g.first === undefined), 'the earlier one-off stays in its rank');
});

/**
 * A Rails-like log: initializers, a setting logged once as INFO, then every request's query
 * failing in three components, with the access log between. `between` goes right after the
 * setting's line.
 */
function settingBeforeFailures(setting: string, between: string[] = []): string {
  const at = (i: number): string => `I, [2026-12-06T14:21:18.${String(100_000 + i).padStart(6, '0')} #29679]`;
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    lines.push(`${at(i)}  INFO -- : Loaded initializer ${i}`);
    if (i % 4 === 0) lines.push(`W${at(i).slice(1)}  WARN -- : DEPRECATION WARNING: \`Deprecation.warn\` is deprecated (called from initializer ${i})`);
  }
  lines.push(`${at(200)}  INFO -- : ${setting}`, ...between.map((m, k) => `${at(201 + k)}  INFO -- : ${m}`));
  const failures = [
    'ActiveRecord::StatementInvalid: SQLite3::SQLException: no such table: users',
    'mailer: digest for project skipped, ActiveRecord::StatementInvalid (no such table: deliveries)',
    'worker: job SyncJob failed after 3 attempts: no such table: projects',
    'search: reindex aborted, table projects missing',
    'billing: invoice run stopped: could not read table invoices',
  ];
  for (let i = 0; i < 90; i++) {
    lines.push(`${at(300 + i)}  INFO -- : Started GET "/projects/${(i * 37) % 300}" for 10.0.0.${i % 250}`);
    lines.push(`E${at(300 + i).slice(1)} ERROR -- : ${failures[i % failures.length]}`);
  }
  return `${lines.join('\n')}\n`;
}

test('a setting logged once as INFO just before every query fails is shown after the first failures, though it ranks past the first screen', async (t) => {
  const setting = 'DATABASE_URL not set; using sqlite3 in-memory database';
  const text = settingBeforeFailures(setting);
  const r = await condense(text);
  const shown = r.groups.find((g) => g.example.includes(setting))!;
  t.truthy(shown.rare, 'shown for the burst it precedes');
  t.true(shown.rank > 5, `ranking alone puts it at #${shown.rank}, past the first screen`);
  t.deepEqual(shown.rare!.shared, [], 'nearness alone: no word in common');
  const burst = r.groups.find((g) => g.rank === shown.rare!.beforeRank)!;
  t.true(burst.severity === 'error' && burst.count >= 5 && burst.firstLine === shown.firstLine + 2, 'the first failures begin after one access-log line');
  t.is(r.groups[r.groups.indexOf(burst) + 1], shown, 'right after that burst, not at its own rank too');
  t.is(r.groups.filter((g) => g.example.includes(setting)).length, 1);
  const out = renderLogText(r, 10_000);
  t.true(out.indexOf(setting) > 0 && out.indexOf(setting) < 4096, 'in the first screen');
  t.regex(out, /rare \(1 record\), 0 ms before the burst of #\d+ .* begins\n/);
  t.deepEqual(await condense(text, 2), r, 'chunked alike');
});

test('nearness alone claims only the last rare lines before a burst, near it, that say something of their own', async (t) => {
  const setting = 'DATABASE_URL not set; using sqlite3 in-memory database';
  const claimed = async (between: string[], first = setting): Promise<string[]> =>
    (await condense(settingBeforeFailures(first, between))).groups.filter((g) => g.rare !== undefined).map((g) => g.example.slice(g.example.indexOf('INFO -- : ') + 10));
  // Two rare lines nearer the failures than the setting: they are the ones claimed.
  t.deepEqual(await claimed(['cache store ready in 3 ms', 'listening on port 3000']), ['cache store ready in 3 ms', 'listening on port 3000']);
  t.deepEqual(await claimed(['listening on port 3000']), [setting, 'listening on port 3000']);
  // More than eight lines before the failures begin, it is not near them.
  const many = Array.from({ length: 8 }, (_, i) => `Loaded initializer ${i}`);
  t.deepEqual(await claimed(many), []);
  t.deepEqual(await claimed(many.slice(0, 6)), [setting]);
  // A message with no word of its own says nothing: an empty one, a rule of dashes.
  t.deepEqual(await claimed([], ''), []);
  t.deepEqual(await claimed([], '----------------'), []);
});

test('a JSON line\'s keys are no words it shares with a burst: every line has them', async (t) => {
  const at = (s: number): string => new Date(Date.UTC(2024, 4, 14, 12, 0, s)).toISOString();
  const lines = [JSON.stringify({ time: at(0), level: 'info', comp: 'main', msg: 'shop-api starting', pid: 1 })];
  const kinds = ['request completed', 'cron tick', 'websocket client connected', 'export chunk written', 'message acked', 'cache warmed', 'session renewed'];
  for (let i = 1; i < 200; i++) lines.push(JSON.stringify({ time: at(i), level: 'info', comp: 'http', msg: kinds[i % kinds.length], n: i }));
  for (let i = 200; i < 260; i++) lines.push(JSON.stringify({ time: at(i), level: 'error', comp: ['webhooks', 'checkout', 'queue', 'http', 'mailer'][i % 5], msg: ['payment webhook dropped', 'checkout failed', 'message nacked', 'request failed', 'receipt not sent'][i % 5], n: i }));
  const r = await condense(`${lines.join('\n')}\n`);
  t.true(r.groups.filter((g) => g.severity === 'error').length >= 5);
  t.falsy(r.groups.find((g) => g.rare !== undefined), JSON.stringify(r.groups.find((g) => g.rare !== undefined)?.rare));
});

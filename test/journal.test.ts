import test from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildJournalFile, type JournalFixtureEntry } from '../fixtures/journal.js';
import { condenseLog } from '../src/log/index.js';
import { journalSource, parseLast, type JournalSourceOptions } from '../src/input/journal.js';
import { tempDir } from './helpers.js';

const dir = tempDir('journal');

// A fixed hour: the window is given by `now`, so the test does not depend on the clock.
const BASE_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_MS = BASE_MS + 60 * 60_000;
const at = (minutes: number): number => (BASE_MS + minutes * 60_000) * 1000 + 123_000;

const ENTRIES: JournalFixtureEntry[] = [
  { atUsec: at(10), priority: 3, identifier: 'myproc', comm: 'myproc', pid: 100, message: 'old error before the window' },
  { atUsec: at(51), priority: 4, identifier: 'myproc', comm: 'myproc', pid: 100, message: 'disk almost full on /var', facility: 3 },
  { atUsec: at(52), priority: 2, identifier: 'myproc', comm: 'myproc', pid: 100, message: 'panic: boom\nat frame one' },
  { atUsec: at(53), priority: 6, identifier: 'otherproc', comm: 'otherproc', pid: 200, message: 'other says hello' },
  { atUsec: at(54), identifier: 'myproc', comm: 'myproc', pid: 100, message: 'an entry without priority' },
  { atUsec: at(55), priority: 5, identifier: 'myproc', comm: 'myproc', pid: 101, message: 'connection 1 accepted' },
  { atUsec: at(55.5), priority: 5, identifier: 'myproc', comm: 'myproc', pid: 101, message: 'connection 2 accepted' },
  { atUsec: at(56), priority: 6, identifier: 'sshd', comm: 'sshd', pid: 300, unit: 'ssh.service', message: 'Accepted publickey for admin' },
  { atUsec: at(57), priority: 7, comm: 'averyveryverylo', pid: 400, message: 'a long command name, kept to 15 bytes by the kernel' },
  { atUsec: at(65), priority: 3, identifier: 'myproc', comm: 'myproc', pid: 100, message: 'after the window' },
];

let journal: string | undefined;
/** Built once, on first use; a missing systemd-journal-remote fails the test that needs it, with how to install it. */
function journalFile(): string {
  journal ??= buildJournalFile(dir, 'fixture', ENTRIES);
  return journal;
}

/** Local time as the native library writes it: 2026-01-15T12:51:00.123+0100. */
function localStamp(usec: number): string {
  const d = new Date(usec / 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}${sign}${pad(Math.floor(Math.abs(off) / 60))}${pad(Math.abs(off) % 60)}`;
}

async function readAll(options: Omit<JournalSourceOptions, 'file' | 'now'>): Promise<string> {
  const source = journalSource({ ...options, file: journalFile(), now: NOW_MS });
  const opened = await source.open();
  const parts: Buffer[] = [];
  for await (const chunk of opened.chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

test('a time window keeps the entries inside it, as <PRI> lines in local time', async (t) => {
  const text = await readAll({ last: '10m' });
  const e = (i: number): JournalFixtureEntry => ENTRIES[i]!;
  t.is(
    text,
    [
      `<28>${localStamp(e(1).atUsec)} myproc[100]: disk almost full on /var`,
      // One entry, one line: the message's newline is written as \n.
      `<2>${localStamp(e(2).atUsec)} myproc[100]: panic: boom\\nat frame one`,
      `<6>${localStamp(e(3).atUsec)} otherproc[200]: other says hello`,
      `${localStamp(e(4).atUsec)} myproc[100]: an entry without priority`,
      `<5>${localStamp(e(5).atUsec)} myproc[101]: connection 1 accepted`,
      `<5>${localStamp(e(6).atUsec)} myproc[101]: connection 2 accepted`,
      `<6>${localStamp(e(7).atUsec)} sshd[300]: Accepted publickey for admin`,
      `<7>${localStamp(e(8).atUsec)} averyveryverylo[400]: a long command name, kept to 15 bytes by the kernel`,
      '',
    ].join('\n'),
  );
});

test('a process filter matches the identifier or the command name, exactly', async (t) => {
  const mine = await readAll({ last: '10m', process: 'myproc' });
  t.is(mine.split('\n').filter((l) => l.includes('myproc[')).length, 5);
  t.false(mine.includes('otherproc'));
  t.false(mine.includes('sshd'));
  t.is(await readAll({ last: '10m', process: 'myproc2' }), '');
  t.is(await readAll({ last: '10m', process: 'myproc'.toUpperCase() }), '');
  // A name longer than the kernel's 15 bytes still finds the truncated _COMM.
  t.regex(await readAll({ last: '10m', process: 'averyveryverylongname' }), /averyveryverylo\[400\]/);
});

test('a subsystem filter matches the systemd unit, .service added to a bare name', async (t) => {
  const ssh = await readAll({ last: '1h', subsystem: 'ssh' });
  t.regex(ssh, /^<6>\S+ sshd\[300\]: Accepted publickey for admin\n$/);
  t.is(await readAll({ last: '1h', subsystem: 'ssh.service', process: 'sshd' }), ssh);
  t.is(await readAll({ last: '1h', subsystem: 'ssh', process: 'myproc' }), '');
});

test('a wider window reaches back further; nothing past now is read', async (t) => {
  const hour = await readAll({ last: '1h' });
  t.true(hour.includes('old error before the window'));
  t.false(hour.includes('after the window'));
});

test('condensed, severities come from PRIORITY (warning included)', async (t) => {
  const result = await condenseLog([journalSource({ last: '10m', file: journalFile(), now: NOW_MS })], {});
  t.is(result.kind, 'log');
  if (result.kind !== 'log') return;
  // info: two with PRIORITY 6, and the entry without one (its words say nothing worse).
  t.deepEqual(result.linesBySeverity, { critical: 1, error: 0, warning: 1, notice: 2, info: 3, debug: 1 });
  const severityOf = (needle: string): string | undefined => result.groups.find((g) => g.example.includes(needle))?.severity;
  t.is(severityOf('panic: boom'), 'critical');
  t.is(severityOf('disk almost full'), 'warning');
  t.is(severityOf('connection 1 accepted') ?? severityOf('connection 2 accepted'), 'notice');
  t.is(severityOf('other says hello'), 'info');
  t.is(severityOf('kept to 15 bytes'), 'debug');
});

test('bad options fail up front with WISP_BAD_ARGUMENT', (t) => {
  for (const last of ['', '10', '0m', '2d', '25h', '1441m', '86401s', '-5m', '10 minutes', '1.5h', 'm']) {
    const err = t.throws(() => journalSource({ last }), undefined, last);
    t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT', last);
  }
  for (const bad of [{ process: '' }, { process: 'a\nb' }, { subsystem: 'x'.repeat(300) }, { subsystem: 'tab\there' }, { file: '' }]) {
    const err = t.throws(() => journalSource({ last: '10m', ...bad }));
    t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT', JSON.stringify(bad));
  }
  t.is(parseLast('1d'), 86_400);
  t.is(parseLast('24h'), 86_400);
  t.is(parseLast('90s'), 90);
  t.is(parseLast(' 10m '), 600);
});

test('a missing journal file is WISP_FILE_NOT_FOUND when opened', async (t) => {
  const err = await t.throwsAsync(journalSource({ last: '10m', file: `${dir}/missing.journal` }).open());
  t.is((err as { code?: string }).code, 'WISP_FILE_NOT_FOUND');
});

test('an aborted read is WISP_CANCELLED', async (t) => {
  const controller = new AbortController();
  controller.abort();
  const err = await t.throwsAsync(journalSource({ last: '10m', file: journalFile(), now: NOW_MS, signal: controller.signal }).open());
  t.is((err as { code?: string }).code, 'WISP_CANCELLED');
});

test('the source names its window and filters', (t) => {
  t.is(journalSource({ last: '10m', file: '/x.journal', process: 'sshd' }).name, '/x.journal (last 10m, process sshd)');
});

// ---- fields written by senders: one entry, one line, whatever they hold ----

const FORGED = '<2>2026-01-15T12:30:00.000+0000 sshd[1]: FORGED root login';
const HOSTILE: JournalFixtureEntry[] = [
  { atUsec: at(30), priority: 6, identifier: `innocent\n${FORGED}`, comm: 'innocent', pid: 500, message: 'hello' },
  { atUsec: at(31), priority: 6, identifier: 'msg', comm: 'msg', pid: 501, message: `one\r${FORGED}\u001b[31m\u0000end` },
  { atUsec: at(32), priority: 9, identifier: 'odd', comm: 'odd', pid: 502, message: 'priority nine' },
  { atUsec: at(33), priority: 'high', identifier: 'odd', comm: 'odd', pid: 502, message: 'priority high' },
  { atUsec: at(34), priority: 5, identifier: 'nopid', syslogPid: `7]: ${FORGED.slice(0, 8)}\n`, message: 'a SYSLOG_PID that is not a number' },
  { atUsec: at(35), priority: 5, identifier: 'tabbed\tname', comm: 'tabbed', pid: 503, message: 'a\ttab stays' },
];

let hostile: string | undefined;
async function readHostile(): Promise<string> {
  hostile ??= buildJournalFile(dir, 'hostile', HOSTILE);
  const opened = await journalSource({ last: '1h', file: hostile, now: NOW_MS }).open();
  const parts: Buffer[] = [];
  for await (const chunk of opened.chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

test('an identifier or message holding a newline cannot forge a line: every field is escaped, each entry is one line', async (t) => {
  const text = await readHostile();
  const lines = text.split('\n').slice(0, -1);
  t.is(lines.length, HOSTILE.length, text);
  for (const line of lines) t.false(line.startsWith('<2>'), `no line starts as the forged record: ${line}`);
  t.is(lines[0], `<6>${localStamp(HOSTILE[0]!.atUsec)} innocent\\n${FORGED}[500]: hello`);
  t.is(lines[1], `<6>${localStamp(HOSTILE[1]!.atUsec)} msg[501]: one\\r${FORGED}\\x1b[31m\\x00end`);
  t.is(lines[5], `<5>${localStamp(HOSTILE[5]!.atUsec)} tabbed\tname[503]: a\ttab stays`);
  // Condensed, the forged text is inside an info record, not a critical one of its own.
  const result = await condenseLog([journalSource({ last: '1h', file: hostile!, now: NOW_MS })], {});
  t.is(result.kind, 'log');
  if (result.kind === 'log') t.is(result.linesBySeverity.critical, 0);
});

test('PRIORITY outside 0..7 is shown as it is, with no level made up for it', async (t) => {
  const lines = (await readHostile()).split('\n');
  t.is(lines[2], `${localStamp(HOSTILE[2]!.atUsec)} odd[502]: (PRIORITY=9 is not a syslog level) priority nine`);
  t.is(lines[3], `${localStamp(HOSTILE[3]!.atUsec)} odd[502]: (PRIORITY=high is not a syslog level) priority high`);
});

test('a SYSLOG_PID that is not a number is left out', async (t) => {
  const line = (await readHostile()).split('\n')[4]!;
  t.is(line, `<5>${localStamp(HOSTILE[4]!.atUsec)} nopid: a SYSLOG_PID that is not a number`);
});

test('a corrupt or truncated journal file gives an error that says so', async (t) => {
  const good = readFileSync(journalFile());
  const cases: [string, Buffer, RegExp][] = [
    ['truncated', good.subarray(0, 300), /the file is truncated or holds no journal data .*journalctl --verify/],
    ['bad-header', Buffer.concat([Buffer.from('XXXXXXXX'), good.subarray(8)]), /the file is corrupt \(a bad header or object\)/],
  ];
  for (const [name, bytes, message] of cases) {
    const file = join(dir, `${name}.journal`);
    writeFileSync(file, bytes);
    const err = await t.throwsAsync(journalSource({ last: '1h', file, now: NOW_MS }).open());
    t.is((err as { code?: string }).code, 'WISP_UNREADABLE', name);
    t.regex((err as Error).message, message, name);
    t.true((err as Error).message.includes(file), name);
  }
});

/** The threads of this process named `wisp-log`: the journal readers' own. */
function logThreads(): number {
  return readdirSync('/proc/self/task').filter((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'wisp-log';
    } catch {
      return false; // the thread ended while being listed
    }
  }).length;
}

/**
 * logThreads once it equals `want`, or after about a second. A joined thread's /proc entry
 * can outlive pthread_join by a moment (the kernel wakes the joiner before it reaps the
 * thread), so a count taken right after close may still include it.
 */
async function logThreadsSettled(want: number): Promise<number> {
  let n = logThreads();
  for (let i = 0; i < 200 && n !== want; i++) {
    await new Promise((r) => setTimeout(r, 5));
    n = logThreads();
  }
  return n;
}

test.serial('each open journal has one thread of its own from open to close (sd-journal objects stay on one thread)', async (t) => {
  const { openSystemLog } = await import('../src/native/system-log.js');
  const before = await logThreadsSettled(0);
  const query = { sinceUsec: 0, process: '', subsystem: '', file: journalFile() };
  const a = await openSystemLog(query);
  const b = await openSystemLog(query);
  t.is(logThreads(), before + 2);
  // Reads run on the same thread: none is started for them.
  for (let batch = await a.next(64); batch !== undefined; batch = await a.next(64)) t.is(logThreads(), before + 2);
  a.close();
  t.is(await logThreadsSettled(before + 1), before + 1);
  b.close();
  t.is(await logThreadsSettled(before), before);
});

test.serial('closing a journal while a read is in flight waits for the read', async (t) => {
  const { openSystemLog } = await import('../src/native/system-log.js');
  const reader = await openSystemLog({ sinceUsec: 0, process: '', subsystem: '', file: journalFile() });
  const pending = reader.next(1024 * 1024);
  reader.close();
  const batch = await pending;
  t.true(batch === undefined || batch.toString('utf8').includes('myproc'));
  t.is(await reader.next(1024), undefined, 'nothing is read after close');
});

import test from 'ava';
import { buildJournalFile, type JournalFixtureEntry } from '../fixtures/journal.js';
import { condenseLog } from '../src/log/condense-log.js';
import { journalSource, parseLast, type JournalSourceOptions } from '../src/source/journal-source.js';
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
      `<2>${localStamp(e(2).atUsec)} myproc[100]: panic: boom`,
      '    at frame one',
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
  t.deepEqual(result.linesBySeverity, { critical: 2, error: 0, warning: 1, notice: 2, info: 3, debug: 1 });
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

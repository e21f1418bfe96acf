/**
 * The native pass over a chunk (native/src/log_chunk.c through src/log/chunk/native-chunk.ts)
 * reads the records that are one header line each; condense-chunk.ts reads every other line
 * and merges the two. The partial must be what reading every line in JavaScript gives, for
 * any mix of the two: groups of both, values of both, records around secrets, colours,
 * traces, long lines, a BOM, a last line without its newline.
 */
import test from 'ava';
import { condenseChunk } from '../src/log/chunk/condense-chunk.js';
import { nativePass, nativePassApplies } from '../src/log/chunk/native-chunk.js';
import { detectFormat } from '../src/log/read/detect.js';
import { screenLines } from '../src/redact/screen.js';
import { MAX_LINE_BYTES } from '../src/split/line-chunks.js';
import { logShowCompact, logShowDefault, mixedLog } from '../fixtures/logs.js';
import { seededRandom } from '../fixtures/random.js';

/** The partial both ways: with the native pass, and with every line read in JavaScript. */
function bothWays(text: string): { native: ReturnType<typeof condenseChunk>; here: ReturnType<typeof condenseChunk>; records: number; segments: number } {
  const buf = Buffer.from(text, 'utf8');
  const info = detectFormat(text.slice(0, 64 * 1024));
  const pass = nativePass(buf, info, screenLines(buf, 0, buf.length), MAX_LINE_BYTES);
  return { native: condenseChunk(buf, info), here: condenseChunk(buf, info, { nativePass: false }), records: pass.records, segments: pass.segments };
}

const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;

/** A service's log with every kind of line the native pass leaves to JavaScript among those it reads. */
function mixedCases(seed: number): string {
  const lines: string[] = [];
  let n = seed;
  const next = (k: number): number => {
    n = (n * 1103515245 + 12345) & 0x7fffffff;
    return n % k;
  };
  const time = (i: number): string => `2024-01-02 03:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}`;
  for (let i = 0; i < 600; i++) {
    const t = time(i);
    switch (next(14)) {
      case 0:
        // The same template as the one-line errors, read here for its frame: one group, values from both.
        lines.push(`${t} ERROR request failed id=${next(40)} trace_id=tr${1000 + next(6)}`, '    at handler (src/api.ts:88:5)');
        break;
      case 1:
        lines.push(`${t} ERROR request failed id=${next(40)} trace_id=tr${1000 + next(6)}`);
        break;
      case 2:
        lines.push(`${t} WARN login with token ${GITHUB_TOKEN} from 10.0.0.${next(9)}`);
        break;
      case 3:
        lines.push(`\x1b[33m${t} WARN slow query ${next(900)}ms\x1b[0m`);
        break;
      case 4:
        // A record of the one-line template with a line under it that carries no cause: the same key.
        lines.push(`${t} INFO job ${next(30)} done in ${next(100)}ms`, `  note: retried ${next(3)} times`);
        break;
      case 5:
        lines.push(`${t} user ${next(50)} logged in`);
        break;
      case 6:
        lines.push(`plain output line ${next(10)}`);
        break;
      case 7:
        lines.push('');
        break;
      case 8:
        lines.push(`${t} DEBUG cache ${'x'.repeat(next(2) === 0 ? 10 : 200)} key=${next(5)}`);
        break;
      default:
        lines.push(`${t} INFO job ${next(30)} done in ${next(100)}ms trace_id=tr${1000 + next(6)}`);
    }
  }
  return lines.join('\n');
}

test('the native pass and JavaScript alone give the same partial, on a service log with every kind of line', (t) => {
  for (const seed of [1, 2, 3, 4]) {
    const r = bothWays(mixedCases(seed));
    t.true(r.records > 50 && r.segments > 50, `both read some records (native ${r.records}, segments ${r.segments})`);
    t.deepEqual(r.native, r.here, `seed ${seed}`);
  }
});

test('...with a BOM, a line past the longest read whole, trace ids, and the last line without its newline', (t) => {
  const log = `\ufeff${mixedCases(5)}\n2024-01-02 04:00:00 INFO big ${'y'.repeat(MAX_LINE_BYTES)}\n${mixedCases(6)}\n2024-01-02 05:00:00 INFO job 1 done in 2ms`;
  const r = bothWays(log);
  t.true(r.records > 50);
  t.deepEqual(r.native, r.here);
  t.truthy(detectFormat(log.slice(0, 65536)).traceKey, 'the log carries trace ids');
});

test('...on the generated service log, whose errors carry frames', (t) => {
  const r = bothWays(mixedLog(3000, 9));
  t.true(r.records > 1000);
  t.deepEqual(r.native, r.here);
});

test("...on log show's default and compact styles, their frames and multi-line messages among the rows", (t) => {
  for (const text of [logShowDefault(3000, 5), logShowCompact(3000, 6)]) {
    const r = bothWays(text);
    t.true(r.records > 1000, `rows read natively (${r.records})`);
    t.deepEqual(r.native, r.here);
  }
});

/**
 * Header lines that declare no level among lines that do, and a syslog that has no level
 * column: the native pass reads such a line as Info where JavaScript would, and leaves it
 * where its words say more (trouble words in any case, within or past the words read), its
 * message names a place (`sshd: line 3: `), or the line before it named a warning or an
 * error, which it may say more of (`continuesLoggedError`).
 */
function undeclaredCases(seed: number, levels: boolean): string {
  const rand = seededRandom(seed);
  const next = (k: number): number => Math.floor(rand() * k);
  const lines: string[] = [];
  const months = ['Jan', 'Feb', 'Mar'];
  for (let i = 0; i < 700; i++) {
    const t = levels ? `2024-01-02 03:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}` : `${months[i % 3]} ${String(1 + (i % 28)).padStart(2, ' ')} 10:${String(i % 60).padStart(2, '0')}:01 host`;
    const lv = (word: string): string => (levels ? ` ${word}` : '');
    switch (next(17)) {
      case 0:
        lines.push(`${t}${lv('WARN')} disk ${next(9)} low`, `${t} disk ${next(9)} still low: ${next(99)}%`);
        break;
      case 1:
        lines.push(`${t}${lv('ERROR')} query ${next(50)} failed`, `${t} query ${next(50)} retried on replica ${next(3)}`);
        break;
      case 2:
        lines.push(`${t} sshd[${next(900)}]: Authentication FAILURE for user${next(9)}`);
        break;
      case 3:
        lines.push(`${t} cron: line ${next(40)}: bad minute`);
        break;
      case 4:
        lines.push(`${t} kernel.c:${next(900)}: oops in module`);
        break;
      case 5:
        lines.push(`${t} job ${next(30)} ${'padding '.repeat(70)}then it Timed out`);
        break;
      case 6:
        lines.push(`${t} job ${next(30)} ${'padding '.repeat(10)}then it Timed out`);
        break;
      case 7:
        lines.push(`    at worker (src/jobs.ts:${next(90)}:3)`);
        break;
      case 8:
      case 9:
      case 10:
        lines.push(`${t}${lv('INFO')} started job ${next(30)}`);
        break;
      case 11:
        lines.push('');
        break;
      case 12: {
        // PostgreSQL's `DETAIL:` under `ERROR:`, with the same time and fields: one record.
        const pid = `[${1000 + next(9)}]`;
        lines.push(`${t} ${pid} ERROR:  duplicate key value ${next(9)}`, `${t} ${pid} DETAIL:  Key (id)=(${next(9)}) already exists.`);
        break;
      }
      default:
        lines.push(`${t} sshd[${next(900)}]: session opened for user${next(9)} by (uid=${next(5)})`);
    }
  }
  return lines.join('\n');
}

test('...with header lines that declare no level: read natively as Info only where JavaScript reads them so', (t) => {
  for (const levels of [true, false]) {
    for (const seed of [1, 2, 3]) {
      const text = undeclaredCases(seed, levels);
      const r = bothWays(text);
      t.true(r.records > 100 && r.segments > 30, `both read some records (native ${r.records}, segments ${r.segments})`);
      t.deepEqual(r.native, r.here, `seed ${seed}, ${levels ? 'with' : 'without'} a level column`);
    }
  }
});

test('an error finds its earlier record on its trace alike whether every id is read as it comes or only errors search back: at the window\'s edge too', (t) => {
  // A request's first record, then hundreds of others, then its error: 499, 500 and 501 records later.
  const lines: string[] = [];
  const time = (i: number): string => `2024-01-02 03:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000`;
  let i = 0;
  for (const gap of [498, 499, 500, 20]) {
    const id = `req-${1000 + gap}`;
    lines.push(`${time(i++)} INFO start request_id=${id}`);
    for (let k = 0; k < gap; k++) lines.push(`${time(i++)} DEBUG tick ${k} request_id=other-${k % 7}`);
    lines.push(`${time(i++)} ERROR failed request_id=${id}`);
  }
  const r = bothWays(lines.join('\n'));
  t.deepEqual(r.native, r.here);
  const pairs = r.native.sequence!.pairs.filter(([, , sameTrace]) => sameTrace === 1);
  t.is(pairs.reduce((n, p) => n + p[3], 0), 3, 'three errors within the window of their request\'s start, one past it');
});

test('a placeholder whose values pass what a tally keeps, between records read both ways, keeps none', (t) => {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    lines.push(`2024-01-02 03:04:${String(i).padStart(2, '0')} INFO job ${1000 + i} done`);
    if (i % 3 === 0) lines.push('  note: slow');
  }
  const r = bothWays(lines.join('\n'));
  t.deepEqual(r.native, r.here);
  const job = r.native.groups.find((g) => g.template.startsWith('INFO job'));
  t.is(job?.records, 40);
  t.is(job?.values?.[0], null, 'more than sixteen distinct values: many');
});

test('the native pass reads only formats whose records it reads as JavaScript does', (t) => {
  const info = detectFormat('2024-01-02 03:04:05 INFO a\n2024-01-02 03:04:06 INFO b\n2024-01-02 03:04:07 INFO c\n');
  t.true(nativePassApplies(info));
  t.false(nativePassApplies({ ...info, namePrefix: true }));
  t.false(nativePassApplies({ ...info, leadingTabFields: 2 }));
  t.false(nativePassApplies({ ...info, levelOnNextLine: true }));
  t.false(nativePassApplies({ ...info, format: 'json' }));
  t.true(nativePassApplies({ ...info, format: 'logshow', strict: true, hasTtl: true }), "log show's rows are headers the native pass reads");
  t.true(nativePassApplies({ ...info, format: 'logshow-compact', strict: true }));
});

test('a secret on a line the native pass would read is left to JavaScript, and redacted there', (t) => {
  const r = bothWays(mixedCases(7));
  const shown = JSON.stringify(r.native);
  t.false(shown.includes(GITHUB_TOKEN));
  t.true(shown.includes('[REDACTED:github-token]'));
});

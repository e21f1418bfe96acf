/**
 * Batch throughput over a generated archive, as whole CLI processes, against baselines run
 * in the same run: `cat` of the plain files (reading alone) and `gzip -dc` of the .gz ones
 * (decompression alone). Peak RSS at two archive sizes shows whether memory grows with input.
 *
 *   node dist/perf/bench-batch.js [--quick]    # --quick: 100 MB and 300 MB instead of 100 MB and 1 GB
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { mixedLogLines } from '../fixtures/logs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'wisp-batch-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** An archive of rotated files of about `fileMb` each, `totalMb` in all, plain or gzipped. */
async function makeArchive(name: string, totalMb: number, fileMb: number, gzip: boolean): Promise<string> {
  const folder = join(dir, name);
  mkdirSync(folder);
  const lines = mixedLogLines(5);
  const files = Math.ceil(totalMb / fileMb);
  for (let f = 0; f < files; f++) {
    const path = join(folder, `app.log${f === 0 ? '' : `.${f}`}${gzip ? '.gz' : ''}`);
    const out = createWriteStream(path);
    const sink = gzip ? createGzip({ level: 6 }) : undefined;
    sink?.pipe(out);
    const target = sink ?? out;
    let written = 0;
    let batch = '';
    // next() by hand: breaking out of for..of would close the shared generator.
    for (;;) {
      batch += `${lines.next().value as string}\n`;
      if (batch.length >= MB) {
        written += batch.length;
        if (!target.write(batch)) await new Promise<void>((r) => target.once('drain', () => r()));
        batch = '';
        if (written >= fileMb * MB) break;
      }
    }
    await new Promise<void>((r) => {
      out.on('finish', () => r());
      target.end();
    });
  }
  return folder;
}

const bytesOf = (folder: string): number => readdirSync(folder).reduce((n, f) => n + statSync(join(folder, f)).size, 0);

function timed(cmd: string, args: string[]): { ms: number; rssMb: number } {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * MB });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  const [secs, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { ms: secs! * 1000, rssMb: kb! / 1024 };
}

async function main(): Promise<void> {
  const smallMb = 100;
  const bigMb = quick ? 300 : 1024;
  const plain = await makeArchive('plain', smallMb, 10, false);
  const gz = await makeArchive('gz', smallMb, 10, true);
  const uncompressed = bytesOf(plain) / MB;
  const wisp = join(ROOT, 'bin', 'wisp.js');
  const rows: [string, number, number, string][] = [];

  const plainRun = timed(process.execPath, [wisp, 'log', plain]);
  const cat = timed('sh', ['-c', `cat ${plain}/* > /dev/null`]);
  rows.push([`wisp log, ${uncompressed.toFixed(0)} MB plain in 10 files`, plainRun.ms, uncompressed / (plainRun.ms / 1000), `peak RSS ${plainRun.rssMb.toFixed(0)} MB`]);
  rows.push(['  baseline: cat > /dev/null', cat.ms, uncompressed / (cat.ms / 1000), `wisp/cat time ${(plainRun.ms / cat.ms).toFixed(1)}x`]);

  const gzRun = timed(process.execPath, [wisp, 'log', gz]);
  const gunzip = timed('sh', ['-c', `gzip -dc ${gz}/* > /dev/null`]);
  rows.push([`wisp log, same archive gzipped (${(bytesOf(gz) / MB).toFixed(0)} MB .gz)`, gzRun.ms, uncompressed / (gzRun.ms / 1000), `peak RSS ${gzRun.rssMb.toFixed(0)} MB`]);
  rows.push(['  baseline: gzip -dc > /dev/null', gunzip.ms, uncompressed / (gunzip.ms / 1000), `wisp/gzip time ${(gzRun.ms / gunzip.ms).toFixed(2)}x`]);

  const big = await makeArchive('big', bigMb, 64, false);
  const bigRun = timed(process.execPath, [wisp, 'log', big]);
  rows.push([`wisp log, ${(bytesOf(big) / MB).toFixed(0)} MB plain`, bigRun.ms, bytesOf(big) / MB / (bigRun.ms / 1000), `peak RSS ${bigRun.rssMb.toFixed(0)} MB (${(bigRun.rssMb / plainRun.rssMb).toFixed(2)}x the 100 MB run)`]);

  const w = [52, 9, 8];
  console.log(`${'case'.padEnd(w[0]!)}${'ms'.padStart(w[1]!)}${'MB/s'.padStart(w[2]!)}  note`);
  for (const [c, ms, rate, note] of rows) console.log(`${c.padEnd(w[0]!)}${ms.toFixed(0).padStart(w[1]!)}${rate.toFixed(0).padStart(w[2]!)}  ${note}`);
  console.log('\nMB/s counts uncompressed bytes. Whole processes, node start-up included.');
  execFileSync('true');
}

await main();

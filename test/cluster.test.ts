import test from 'ava';
import { Queue } from 'bullmq';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { javaServiceLog, mixedLog } from '../fixtures/logs.js';
import { WISP_BIN, runCli, tempDir } from './helpers.js';

const dir = tempDir('cluster');
const archive = join(dir, 'archive');
mkdirSync(archive);
const files: string[] = [];
for (let i = 0; i < 8; i++) {
  const text = i % 3 === 0 ? javaServiceLog(3000, 100 + i) : mixedLog(6000, 200 + i);
  const path = join(archive, `svc-${i}.log${i % 2 ? '.gz' : ''}`);
  writeFileSync(path, i % 2 ? gzipSync(text) : text);
  files.push(path);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Redis on loopback: .ci/run starts one (WISP_TEST_REDIS_URL); otherwise the test starts its own. */
async function redisUrl(t: { teardown: (fn: () => void) => void }): Promise<string> {
  if (process.env.WISP_TEST_REDIS_URL) return process.env.WISP_TEST_REDIS_URL;
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error('redis-server is not installed: apt-get install redis-server (.ci/run does this)');
  }
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  t.teardown(() => redis.kill('SIGKILL'));
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString().trim() === 'PONG') return url;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

function startWorker(url: string, queue: string): ChildProcess {
  return spawn(process.execPath, [WISP_BIN, 'cluster', 'worker', '--redis', url, '--queue', queue, '--lock-ms', '1000', '--slow-ms', '800'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

test('two workers, one killed mid-job: the collected report equals the single-process report byte for byte', async (t) => {
  const url = await redisUrl(t);
  const queue = 'wisp-test';
  const single = await runCli(['log', ...files, '--json', '--top', '40']);
  t.is(single.code, 0, single.stderr);

  const enq = await runCli(['cluster', 'enqueue', '--redis', url, '--queue', queue, ...files]);
  t.is(enq.code, 0, enq.stderr);
  t.regex(enq.stderr, /queued 8 jobs/);

  const a = startWorker(url, queue);
  const b = startWorker(url, queue);
  t.teardown(() => {
    a.kill('SIGKILL');
    b.kill('SIGKILL');
  });
  // Kill a worker while both hold a job: its job must come back and be done by the other.
  const port = Number(new URL(url).port);
  const watch = new Queue(queue, { connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null } });
  for (let i = 0; i < 200; i++) {
    const counts = await watch.getJobCounts('active');
    if ((counts.active ?? 0) >= 2) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  t.is((await watch.getJobCounts('active')).active, 2, 'both workers were busy when one was killed');
  a.kill('SIGKILL');

  const collected = await runCli(['cluster', 'collect', '--redis', url, '--queue', queue, '--json', '--top', '40', '--wait', '120']);
  t.is(collected.code, 0, collected.stderr);
  t.is(collected.stdout, single.stdout);
  const completed = await watch.getJobs(['completed']);
  t.is(completed.length, 8);
  await watch.close();
});

test('cluster arguments are checked up front', async (t) => {
  t.regex((await runCli(['cluster', 'enqueue', '--redis', 'http://x', 'a.log'])).stderr, /--redis takes a redis:\/\/ URL.*WISP_BAD_ARGUMENT/);
  t.regex((await runCli(['cluster', 'collect'])).stderr, /--redis URL is required/);
  t.regex((await runCli(['cluster', 'launch', '--redis', 'redis://127.0.0.1:1'])).stderr, /enqueue, worker or collect/);
});

test('cluster names a missing action as such, even when --redis is given', async (t) => {
  const r = await runCli(['cluster', '--redis', 'redis://127.0.0.1:1']);
  t.is(r.code, 2);
  t.regex(r.stderr, /takes enqueue, worker or collect first, got '--redis'/);
  t.notRegex(r.stderr, /--redis URL is required/);
  const help = await runCli(['cluster', '--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /wisp cluster collect --redis URL/);
});

/** A TCP server on loopback that answers every connection with `reply`, or never when it is undefined. */
async function fakeServer(t: { teardown: (fn: () => void) => void }, reply: string | undefined): Promise<string> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    if (reply !== undefined) socket.once('data', () => socket.end(reply));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  return `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
}

test('cluster with no Redis at the address ends with an error naming it instead of waiting forever', async (t) => {
  const closed = `redis://127.0.0.1:${await freePort()}`;
  for (const action of [['enqueue', files[0]!], ['worker'], ['collect']]) {
    const r = await runCli(['cluster', action[0]!, '--redis', closed, ...action.slice(1)]);
    t.is(r.code, 2, r.stderr);
    t.regex(r.stderr, /Redis at 127\.0\.0\.1:\d+ cannot be reached: ECONNREFUSED.*\[WISP_UNAVAILABLE\]/);
  }
  // A server that takes the connection and says nothing: the timeout ends the wait.
  const silent = await runCli(['cluster', 'collect', '--redis', await fakeServer(t, undefined), '--connect-timeout', '1']);
  t.is(silent.code, 2);
  t.regex(silent.stderr, /did not answer within 1 s.*\[WISP_UNAVAILABLE\]/);
  // A server of another protocol is no Redis.
  const web = await runCli(['cluster', 'worker', '--redis', await fakeServer(t, 'HTTP/1.1 400 Bad Request\r\n\r\n')]);
  t.is(web.code, 2);
  t.regex(web.stderr, /answered, but not as Redis does/);
  t.regex((await runCli(['cluster', 'collect', '--redis', closed, '--connect-timeout', '0'])).stderr, /--connect-timeout takes a whole number from 1 to 600/);
});

import { loadBullmq } from '../../cluster/bullmq.js';
import { collectRun } from '../../cluster/collect.js';
import { clusterTarget } from '../../cluster/connection.js';
import { enqueueArchive } from '../../cluster/enqueue.js';
import { reachRedis } from '../../cluster/reach.js';
import { startClusterWorker } from '../../cluster/worker.js';
import { WispError } from '../../core/errors.js';
import { mergeLogPartials } from '../../log/index.js';
import { renderLogText, TEXT_BYTES } from '../../log/render/log-text.js';
import { parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const CLUSTER_USAGE = `wisp cluster enqueue --redis URL [--queue NAME] PATH...
wisp cluster worker --redis URL [--queue NAME] [--concurrency N] [--lock-ms N]
wisp cluster collect --redis URL [--queue NAME] [--json] [--top N] [--wait SECONDS]
every action takes --connect-timeout SECONDS (default 10): how long to wait for Redis's first answer`;

const ACTIONS = new Set(['enqueue', 'worker', 'collect']);

/** Runs wisp log across machines on BullMQ: enqueue an archive, run workers anywhere, collect. */
export const runCluster: CommandRunner = async (args, io) => {
  const [action, ...rest] = args;
  if (action === '--help' || action === '-h') {
    io.stdout.write(`usage:\n${CLUSTER_USAGE}\n`);
    return 0;
  }
  if (action === undefined || !ACTIONS.has(action)) {
    const got = action === undefined ? 'nothing' : `'${action}'`;
    throw new WispError('WISP_BAD_ARGUMENT', `wisp cluster takes enqueue, worker or collect first, got ${got}; usage:\n${CLUSTER_USAGE}`);
  }
  const parsed = parseCommandLine(rest, {
    redis: { type: 'string' },
    queue: { type: 'string' },
    json: { type: 'boolean', default: false },
    top: { type: 'string' },
    wait: { type: 'string' },
    concurrency: { type: 'string' },
    'lock-ms': { type: 'string' },
    attempts: { type: 'string' },
    'connect-timeout': { type: 'string' },
    // Not for users: makes every job wait, so a test can kill a worker mid-job.
    'slow-ms': { type: 'string' },
  }, CLUSTER_USAGE);
  const { values, positionals } = parsed;
  const target = clusterTarget(values.redis, values.queue);
  const connectSeconds = values['connect-timeout'] === undefined ? 10 : parseInteger('--connect-timeout', values['connect-timeout'], 1, 600);
  // A missing bullmq is said before any address is tried: no address would help.
  await loadBullmq();
  await reachRedis(target, connectSeconds * 1000);
  switch (action) {
    case 'enqueue': {
      if (positionals.length === 0) throw new WispError('WISP_BAD_ARGUMENT', 'name the files, folders or globs to enqueue');
      const attempts = values.attempts === undefined ? 3 : parseInteger('--attempts', values.attempts, 1, 100);
      const { jobs } = await enqueueArchive(target, positionals, attempts);
      io.stderr.write(`wisp cluster: queued ${jobs} jobs on ${target.queue}\n`);
      return 0;
    }
    case 'worker': {
      const worker = await startClusterWorker(target, {
        concurrency: values.concurrency === undefined ? 1 : parseInteger('--concurrency', values.concurrency, 1, 64),
        lockMs: values['lock-ms'] === undefined ? 30_000 : parseInteger('--lock-ms', values['lock-ms'], 500, 3_600_000),
        slowMs: values['slow-ms'] === undefined ? 0 : parseInteger('--slow-ms', values['slow-ms'], 0, 600_000),
        log: (line) => io.stderr.write(`wisp cluster worker: ${line}\n`),
      });
      io.stderr.write(`wisp cluster worker: waiting for jobs on ${target.queue}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await worker.close();
      return 0;
    }
    case 'collect': {
      const top = values.top === undefined ? undefined : parseInteger('--top', values.top, 1, 1000);
      const waitMs = (values.wait === undefined ? 3600 : parseInteger('--wait', values.wait, 0, 86_400)) * 1000;
      const result = mergeLogPartials(await collectRun(target, { waitMs }), { top });
      io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderLogText(result, TEXT_BYTES));
      return 0;
    }
    default:
      throw new WispError('WISP_INTERNAL', `cluster action '${action}' has no case`);
  }
};

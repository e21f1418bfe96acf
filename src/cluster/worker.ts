import type { Job, Worker } from 'bullmq';
import { loadBullmq } from './bullmq.js';
import { condenseLogToPartial } from '../log/index.js';
import { fileSource } from '../input/sources.js';
import { WISP_VERSION } from '../core/version.js';
import type { ClusterJob, ClusterTarget } from './connection.js';

export interface ClusterWorkerOptions {
  /** Jobs processed at once by this process. */
  concurrency: number;
  /** How long a job's lock lasts without renewal: a killed worker's job is picked up after it. */
  lockMs: number;
  /** Sleep before each job (tests use it to kill a worker mid-job). */
  slowMs: number;
  log: (line: string) => void;
}

/**
 * Processes jobs until stopped: each job condenses one input into a partial, stored by
 * BullMQ as the job's return value. A worker that dies holds its job only until the lock
 * expires; BullMQ then hands it to another worker.
 */
export async function startClusterWorker(target: ClusterTarget, options: ClusterWorkerOptions): Promise<Worker<ClusterJob, string>> {
  const { Worker } = await loadBullmq();
  const worker = new Worker<ClusterJob, string>(
    target.queue,
    async (job: Job<ClusterJob>) => {
      if (options.slowMs > 0) await new Promise((r) => setTimeout(r, options.slowMs));
      const partial = await condenseLogToPartial([fileSource(job.data.path)], { workers: 0 }, `wisp ${WISP_VERSION}`);
      options.log(`done ${job.id} ${job.data.path} (${partial.read.lines} lines)`);
      return JSON.stringify(partial);
    },
    {
      connection: target.connection,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: Math.max(500, Math.floor(options.lockMs / 2)),
      maxStalledCount: 3,
    },
  );
  worker.on('failed', (job, err) => options.log(`failed ${job?.id ?? '?'}: ${err.message}`));
  worker.on('error', (err) => options.log(`error: ${err.message}`));
  return worker;
}

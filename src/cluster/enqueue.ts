import { expandPaths } from '../input/expand-paths.js';
import { loadBullmq } from './bullmq.js';
import { jobId, runKey, type ClusterJob, type ClusterTarget } from './connection.js';

/**
 * Splits an archive into one job per file, in archive order (rotated files oldest first),
 * replacing whatever the queue held. Every machine that runs a worker must see the same
 * paths (a shared or mirrored file system).
 */
export async function enqueueArchive(target: ClusterTarget, paths: string[], attempts = 3): Promise<{ jobs: number }> {
  const files = (await expandPaths(paths)).filter((p) => p !== '-');
  const { Queue } = await loadBullmq();
  const queue = new Queue<ClusterJob>(target.queue, { connection: target.connection });
  try {
    await queue.obliterate({ force: true });
    const client = await queue.client;
    await client.set(runKey(target.queue), String(files.length));
    await queue.addBulk(
      files.map((path, index) => ({
        name: 'condense',
        data: { index, path },
        opts: {
          jobId: jobId(index),
          attempts,
          backoff: { type: 'exponential', delay: 500 },
          // Partials stay until collect has read them.
          removeOnComplete: false,
          removeOnFail: false,
        },
      })),
    );
    return { jobs: files.length };
  } finally {
    await queue.close();
  }
}

import { WispError } from '../core/errors.js';
import { PARTIAL_FORMAT, PARTIAL_VERSION, parsePartialFile, type PartialFile } from '../log/merge/partial-file.js';
import { loadBullmq } from './bullmq.js';
import { jobId, runKey, type ClusterJob, type ClusterTarget } from './connection.js';

/**
 * Waits until every job of the run has completed or finally failed, and returns their
 * partials in archive order, to be merged. A job that failed after its retries is reported as a skipped
 * input, as a single run reports an unreadable file.
 */
export async function collectRun(target: ClusterTarget, options: { waitMs: number; pollMs?: number }): Promise<PartialFile[]> {
  const { Job, Queue } = await loadBullmq();
  const queue = new Queue<ClusterJob>(target.queue, { connection: target.connection });
  try {
    const client = await queue.client;
    const total = Number(await client.get(runKey(target.queue)));
    if (!Number.isInteger(total) || total <= 0) {
      throw new WispError('WISP_BAD_ARGUMENT', `queue ${target.queue} holds no run: enqueue one with wisp cluster enqueue`);
    }
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const c = await queue.getJobCounts('completed', 'failed');
      if ((c.completed ?? 0) + (c.failed ?? 0) >= total) break;
      if (Date.now() > deadline) {
        throw new WispError('WISP_DEADLINE', `${c.completed ?? 0} of ${total} jobs done after ${Math.round(options.waitMs / 1000)} s`, { hint: 'start more workers, or collect again later' });
      }
      await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
    }
    const partials: PartialFile[] = [];
    for (let i = 0; i < total; i++) {
      const job = await Job.fromId<ClusterJob, string>(queue, jobId(i));
      if (job === undefined) throw new WispError('WISP_UNREADABLE', `job ${jobId(i)} of queue ${target.queue} is gone`);
      if (typeof job.returnvalue === 'string' && job.returnvalue.length > 0) {
        partials.push(parsePartialFile(job.returnvalue, `job ${job.id}`));
      } else {
        partials.push(failedInput(job.data.path, job.failedReason ?? 'no result'));
      }
    }
    return partials;
  } finally {
    await queue.close();
  }
}

/** A failed job stands in the merge as an input that could not be read. */
function failedInput(path: string, reason: string): PartialFile {
  return {
    format: PARTIAL_FORMAT,
    version: PARTIAL_VERSION,
    writtenBy: 'wisp cluster collect',
    read: { inputs: [{ name: path, bytes: 0, gzip: false, format: 'plain text', firstLine: 0, lines: 0 }], bytes: 0, lines: 0, skippedHeadBytes: 0, cutLines: 0, frameLines: 0, skippedInputs: [{ name: path, reason: `job failed: ${reason}` }], notes: [] },
    state: { lines: 0, skipped: 0, cut: 0, groups: [], last: null },
  };
}

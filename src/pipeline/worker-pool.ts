import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';

type RunOptions = NonNullable<Parameters<Piscina['run']>[1]>;

/**
 * The worker threads behind the condensers. One pool serves every task kind: each task
 * names its worker file, so a long-lived server keeps one set of threads warm.
 *
 * piscina is imported when the first pool starts: it costs tens of milliseconds to load,
 * and a small input is condensed in the calling thread without it.
 */
export class WorkerPool {
  readonly #piscina: Piscina;
  readonly threads: number;

  private constructor(piscina: Piscina, threads: number) {
    this.#piscina = piscina;
    this.threads = threads;
  }

  static async start(threads: number): Promise<WorkerPool> {
    const { Piscina } = await import('piscina');
    const piscina = new Piscina({
      minThreads: threads,
      maxThreads: threads,
      // Idle threads stay a while: a server's next call should not pay the start-up again.
      idleTimeout: 30_000,
      // Condensing makes many short-lived strings: a young generation of 64 MB instead of
      // the default roughly doubles a worker's throughput (fewer scavenges; measured with
      // perf/bench-log.js).
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
    });
    return new WorkerPool(piscina, threads);
  }

  run<T>(worker: URL, task: unknown, transfer: ArrayBuffer[], signal?: AbortSignal): Promise<T> {
    return this.#piscina.run(task, {
      filename: worker.href,
      transferList: transfer as RunOptions['transferList'],
      ...(signal ? { signal } : {}),
    }) as Promise<T>;
  }

  /** Tasks the threads have finished so far. */
  get completed(): number {
    return this.#piscina.completed;
  }

  async close(): Promise<void> {
    await this.#piscina.destroy();
  }
}

/** One thread per core by default; these tasks are CPU-bound. */
export function defaultThreadCount(): number {
  return Math.max(1, availableParallelism());
}

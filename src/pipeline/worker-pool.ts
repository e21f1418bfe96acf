import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';

const requireHere = createRequire(import.meta.url);

type RunOptions = NonNullable<Parameters<Piscina['run']>[1]>;

/** What a worker file answers when a thread only loads it (see WorkerPool.warm). */
export interface WarmUp {
  warm: true;
}

/**
 * The worker threads behind the condensers: the one module that knows piscina. One pool
 * serves every task kind: each task names its worker file, so a long-lived server keeps
 * one set of threads warm.
 *
 * piscina is loaded when the first pool starts: it costs tens of milliseconds to load,
 * and a small input is condensed in the calling thread without it.
 *
 * No task is given an AbortSignal: a task aborted just as its worker answers makes
 * piscina (5.3) throw "Unexpected message from Worker" outside any promise, which ends the
 * process (seen in this project's cancellation tests). Callers stop dispatching instead
 * (pipeline/dispatch.ts); a task already sent is a few milliseconds of work.
 */
export class WorkerPool {
  readonly #piscina: Piscina;
  readonly threads: number;
  /** Per worker file warmed: how many of its warm-up tasks have answered. */
  readonly #warmed = new Map<string, number>();
  /** Per worker file warmed: its first thread's answer. */
  readonly #firstWarm = new Map<string, Promise<void>>();
  /** Warm-up tasks not yet answered: close waits for them (see close). */
  readonly #warming = new Set<Promise<void>>();

  private constructor(piscina: Piscina, threads: number) {
    this.#piscina = piscina;
    this.threads = threads;
  }

  static async start(threads: number): Promise<WorkerPool> {
    // Required, in one step: each step of a dynamic import waits for the event loop, which
    // a thread condensing chunks itself holds for tens of milliseconds at a time (a pool
    // asked for at 277 ms started at 674 ms, 30 MB of JSON lines in).
    const { Piscina } = requireHere('piscina') as typeof import('piscina');
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

  /** Runs `task` in a thread with the default export of `worker`; `transfer` moves those buffers there. */
  run<T>(worker: URL, task: unknown, transfer: ArrayBuffer[]): Promise<T> {
    return this.#piscina.run(task, { filename: worker.href, transferList: transfer as RunOptions['transferList'] }) as Promise<T>;
  }

  /**
   * Makes every thread load `worker` now (a WarmUp task each), so that their start-up
   * overlaps the caller's reading; once per worker file for the pool's life. A failure to
   * load counts as an answer too: it shows again on the first real task. Returns when
   * the first thread has answered.
   */
  warm(worker: URL): Promise<void> {
    const first = this.#firstWarm.get(worker.href);
    if (first !== undefined) return first;
    this.#warmed.set(worker.href, 0);
    let resolveFirst!: () => void;
    const firstAnswer = new Promise<void>((resolve) => {
      resolveFirst = resolve;
    });
    this.#firstWarm.set(worker.href, firstAnswer);
    const answered = (): void => {
      this.#warmed.set(worker.href, this.#warmed.get(worker.href)! + 1);
      resolveFirst();
    };
    for (let i = 0; i < this.threads; i++) {
      const warming: Promise<void> = this.run(worker, { warm: true } satisfies WarmUp, []).then(answered, answered);
      this.#warming.add(warming);
      void warming.finally(() => this.#warming.delete(warming));
    }
    return firstAnswer;
  }

  /** Warm-up tasks for `worker` answered so far: at least one means a thread is ready for real tasks. */
  warmed(worker: URL): number {
    return this.#warmed.get(worker.href) ?? 0;
  }

  /** Tasks waiting for a thread: every thread has one. */
  get queued(): number {
    return this.#piscina.queueSize;
  }

  /** Tasks the threads have finished so far. */
  get completed(): number {
    return this.#piscina.completed;
  }

  /**
   * Ends the threads once every warm-up has answered, so that no thread is terminated
   * while it loads its worker file's modules. Once, in a CI dry run, a worker thread
   * aborted the whole process inside piscina's require() of an ES module (node 20:
   * "IsGraphAsync must be used on an instantiated module"); the worker files are CommonJS
   * shims since (workers/condense-log.cts), and this wait stays for any module a thread
   * still loads. It costs at most a module load.
   */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#warming]);
    await this.#piscina.destroy();
  }
}

/** One thread per core by default; these tasks are CPU-bound. */
export function defaultThreadCount(): number {
  return Math.max(1, availableParallelism());
}

/** Inputs smaller than this are worked in the calling thread: starting threads costs more. */
export const IN_PROCESS_BELOW_BYTES = 4 * 1024 * 1024;

/**
 * How many threads a run uses: `workers` when the caller chose, else none for an input
 * known to be small, else the lent pool's threads or one per core.
 */
export function threadsFor(workers: number | 'auto', expectedBytes: number | undefined, pool: WorkerPool | undefined): number {
  if (workers !== 'auto') return workers;
  if (expectedBytes !== undefined && expectedBytes < IN_PROCESS_BELOW_BYTES) return 0;
  return pool?.threads ?? defaultThreadCount();
}

/** threadsFor a run that reads at most `maxBytes` of its inputs, `knownBytes` in all where known. */
export function threadsForReading(workers: number | 'auto', knownBytes: number | undefined, maxBytes: number | undefined, pool: WorkerPool | undefined): number {
  return threadsFor(workers, maxBytes !== undefined ? Math.min(maxBytes, knownBytes ?? Infinity) : knownBytes, pool);
}

/**
 * The pool a run works on: the one lent (left open) or one of its own (closed by `close`),
 * or none when the run stays in the calling thread.
 */
export async function poolFor(threads: number, lent: WorkerPool | undefined): Promise<{ pool: WorkerPool | undefined; close: () => Promise<void> }> {
  if (threads === 0) return { pool: undefined, close: async () => undefined };
  if (lent !== undefined) return { pool: lent, close: async () => undefined };
  const own = await WorkerPool.start(threads);
  return { pool: own, close: () => own.close() };
}

/** Transferring detaches a whole ArrayBuffer: a chunk that does not own exactly one is copied first. */
export function transferable(b: Uint8Array): ArrayBuffer {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return copy.buffer;
}

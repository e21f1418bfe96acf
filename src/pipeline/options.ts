/**
 * The options every condenser takes, with one meaning for logs and JSON alike, and their
 * one validator. Each condenser adds its own (top, maxLines) and its own defaults.
 */
import { choiceOption, functionOption, integerOption, signalOption } from '../core/validate.js';
import { WispError } from '../core/errors.js';
import type { OverMaxBytes } from '../input/byte-limit.js';
import type { ReadProgress } from './progress.js';
import { WorkerPool } from './worker-pool.js';

export interface RunOptions {
  /**
   * Worker threads, 0 to 64; 0 works in the calling thread. Default: in the calling thread
   * for an input known to be under 4 MiB, else the lent pool's threads or one per core.
   */
  workers?: number;
  /** Threads to borrow instead of starting some; left open, so a server's next call finds them warm. */
  pool?: WorkerPool;
  /** Target chunk size in bytes, handed to the threads; results do not depend on it. */
  chunkBytes?: number;
  /** The most bytes of input taken; `overMaxBytes` says what happens past it. */
  maxBytes?: number;
  /** Past maxBytes: `keep-tail` keeps the last maxBytes (whole lines) and says how much it skipped; `refuse` fails with WISP_INPUT_TOO_LARGE. */
  overMaxBytes?: OverMaxBytes;
  signal?: AbortSignal;
  /** Called every few MB read, and at the end. */
  onProgress?: (progress: ReadProgress) => void;
  /**
   * Sees every byte that is condensed, in order, synchronously (before a chunk goes to a
   * thread): how the MCP server keeps exactly what was read behind a handle.
   */
  tap?: (bytes: Buffer) => void;
}

export interface ResolvedRunOptions {
  workers: number | 'auto';
  pool: WorkerPool | undefined;
  chunkBytes: number;
  maxBytes: number | undefined;
  overMaxBytes: OverMaxBytes;
  signal: AbortSignal | undefined;
  onProgress: ((progress: ReadProgress) => void) | undefined;
  tap: ((bytes: Buffer) => void) | undefined;
}

/** What a condenser fixes: its defaults, and the policies past maxBytes it can honour (and why not the others). */
export interface RunDefaults {
  chunkBytes: number;
  maxBytes: number | undefined;
  overMaxBytes: OverMaxBytes;
  policies: readonly OverMaxBytes[];
  why?: string;
}

export const MAX_WORKERS = 64;
/** A chunk is held in memory twice over (read, and in flight): a bound on what a caller may ask. */
export const MAX_CHUNK_BYTES = 256 * 1024 * 1024;

export function resolveRunOptions(o: RunOptions, d: RunDefaults): ResolvedRunOptions {
  if (o.pool !== undefined && !(o.pool instanceof WorkerPool)) throw new WispError('WISP_BAD_ARGUMENT', 'pool must be a WorkerPool');
  return {
    workers: integerOption('workers', o.workers, undefined, 0, MAX_WORKERS) ?? 'auto',
    pool: o.pool,
    chunkBytes: integerOption('chunkBytes', o.chunkBytes, d.chunkBytes, 1, MAX_CHUNK_BYTES),
    maxBytes: integerOption('maxBytes', o.maxBytes, d.maxBytes, 1, Number.MAX_SAFE_INTEGER),
    overMaxBytes: choiceOption('overMaxBytes', o.overMaxBytes, d.overMaxBytes, d.policies, d.why),
    signal: signalOption(o.signal),
    onProgress: functionOption('onProgress', o.onProgress),
    tap: functionOption('tap', o.tap),
  };
}

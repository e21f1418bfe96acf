/**
 * Options for jsonShape, their defaults, and their validation (bad values are refused
 * before any input is read, with WISP_BAD_ARGUMENT).
 */
import { availableParallelism } from 'node:os';
import { WispError } from '../core/errors.js';
import { WorkerPool } from '../pipeline/worker-pool.js';

export interface ShapeOptions {
  /** Lines of outline text, header and footer included (default 120, at least 10). */
  maxLines?: number;
  /** Largest input accepted, in bytes (default 16 MiB, the agent path's cap). */
  maxBytes?: number;
  /**
   * Worker threads for JSON Lines (default: the machine's parallelism, at most 8).
   * 0 shapes in process. Input of at most one chunk is always shaped in process.
   * The output is the same for every value.
   */
  workers?: number;
  /** Bytes of whole lines per JSON Lines chunk handed to a worker (default 4 MiB). */
  chunkBytes?: number;
  /**
   * Input up to this size is read whole and parsed with JSON.parse; larger input (which
   * maxBytes must allow) is streamed with memory that does not grow with it (default 16 MiB).
   */
  holdBytes?: number;
  signal?: AbortSignal;
  /**
   * Worker threads to borrow for JSON Lines instead of starting some (left open, so a
   * server's next call finds them warm). Its thread count replaces `workers`, unless
   * `workers` is 0.
   */
  pool?: WorkerPool;
}

export interface ResolvedOptions {
  maxLines: number;
  maxOutputBytes: number;
  maxBytes: number;
  workers: number;
  chunkBytes: number;
  holdBytes: number;
  signal: AbortSignal | undefined;
  pool: WorkerPool | undefined;
}

export const MIB = 1024 * 1024;
export const DEFAULT_MAX_BYTES = 16 * MIB;
export const DEFAULT_MAX_LINES = 120;
/** About 10 KB for the default 120 lines, growing with a larger line cap. */
const OUTPUT_BYTES_PER_LINE = 85;
const MIN_OUTPUT_BYTES = 10_240;
const MAX_WORKERS_DEFAULT = 8;

export function resolveOptions(options: ShapeOptions): ResolvedOptions {
  const maxLines = integerOption('maxLines', options.maxLines, DEFAULT_MAX_LINES, 10, 1_000_000);
  const maxBytes = integerOption('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES, 1, Number.MAX_SAFE_INTEGER);
  const workers = integerOption('workers', options.workers, Math.min(availableParallelism(), MAX_WORKERS_DEFAULT), 0, 256);
  const chunkBytes = integerOption('chunkBytes', options.chunkBytes, 4 * MIB, 1, 1024 * MIB);
  const holdBytes = integerOption('holdBytes', options.holdBytes, DEFAULT_MAX_BYTES, 1, 1024 * MIB);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new WispError('WISP_BAD_ARGUMENT', 'signal must be an AbortSignal');
  }
  if (options.pool !== undefined && !(options.pool instanceof WorkerPool)) {
    throw new WispError('WISP_BAD_ARGUMENT', 'pool must be a WorkerPool');
  }
  const pool = workers === 0 ? undefined : options.pool;
  return {
    maxLines,
    maxOutputBytes: Math.max(MIN_OUTPUT_BYTES, maxLines * OUTPUT_BYTES_PER_LINE),
    maxBytes,
    workers: pool?.threads ?? workers,
    chunkBytes,
    holdBytes,
    signal: options.signal,
    pool,
  };
}

function integerOption(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} must be an integer from ${min} to ${max}, not ${String(value)}`);
  }
  return value;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new WispError('WISP_CANCELLED', 'json_shape was cancelled');
}

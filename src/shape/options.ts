/**
 * Options for jsonShape: the shared vocabulary (pipeline/options.ts: workers, pool,
 * chunkBytes, maxBytes and what happens past it, signal, onProgress, tap) and the
 * outline's own, their defaults, and their validation (bad values are refused before any
 * input is read, with WISP_BAD_ARGUMENT).
 */
import { cancelledError } from '../core/errors.js';
import { integerOption } from '../core/validate.js';
import { resolveRunOptions, type ResolvedRunOptions, type RunOptions } from '../pipeline/options.js';

export interface ShapeOptions extends RunOptions {
  /** Lines of outline text, header and footer included (default 120, at least 10). */
  maxLines?: number;
  /**
   * Input up to this size is read whole and walked in one pass; larger input (which
   * maxBytes must allow) is streamed with memory that does not grow with it (default 16 MiB).
   */
  holdBytes?: number;
}

export interface ResolvedOptions extends ResolvedRunOptions {
  maxLines: number;
  maxOutputBytes: number;
  /** Always set for JSON: input past it is refused. */
  maxBytes: number;
  holdBytes: number;
}

export const MIB = 1024 * 1024;
/** The agent path's cap for JSON: larger input is refused, never cut (a cut document does not parse). */
export const DEFAULT_MAX_BYTES = 16 * MIB;
export const DEFAULT_MAX_LINES = 120;
/** About 10 KB for the default 120 lines, growing with a larger line cap. */
const OUTPUT_BYTES_PER_LINE = 85;
const MIN_OUTPUT_BYTES = 10_240;

export function resolveOptions(options: ShapeOptions): ResolvedOptions {
  const run = resolveRunOptions(options, {
    chunkBytes: 4 * MIB,
    maxBytes: DEFAULT_MAX_BYTES,
    overMaxBytes: 'refuse',
    policies: ['refuse'],
    why: ': JSON past maxBytes is refused, never cut (cut JSON does not parse)',
  });
  const maxLines = integerOption('maxLines', options.maxLines, DEFAULT_MAX_LINES, 10, 1_000_000);
  return {
    ...run,
    maxBytes: run.maxBytes ?? DEFAULT_MAX_BYTES,
    maxLines,
    maxOutputBytes: Math.max(MIN_OUTPUT_BYTES, maxLines * OUTPUT_BYTES_PER_LINE),
    holdBytes: integerOption('holdBytes', options.holdBytes, DEFAULT_MAX_BYTES, 1, 1024 * MIB),
  };
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError('json_shape');
}

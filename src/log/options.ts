import { WispError } from '../core/errors.js';
import { DEFAULT_CHUNK_BYTES } from '../split/line-chunks.js';

/** The agent path's input cap (ADR 0032): the tail beyond it is kept. */
export const AGENT_MAX_BYTES = 8 * 1024 * 1024;
export const DEFAULT_TOP = 30;
/** Inputs smaller than this are condensed in the main thread: starting threads costs more. */
export const IN_PROCESS_BELOW_BYTES = 4 * 1024 * 1024;

export interface CondenseLogOptions {
  /** How many groups to show (1..1000). Default 30. */
  top?: number;
  /** Worker threads; 0 condenses in the calling thread. Default: in process for small inputs, else one per core. */
  workers?: number;
  /** Target chunk size in bytes (at least 1). Results do not depend on it. */
  chunkBytes?: number;
  /** Keep only the last maxBytes of the input, saying how much of the head was skipped. */
  maxBytes?: number;
  /** Byte budget for the text rendering. Default about 10 KB. */
  textBudget?: number;
  signal?: AbortSignal;
  /** Called every few MB, and at the end, with what has been read so far. */
  onProgress?: (progress: ReadProgress) => void;
  /**
   * Report and skip an input that cannot be read (missing, binary, a corrupt gzip) instead
   * of failing the run. Default: on when there are several inputs.
   */
  skipBadInputs?: boolean;
  /**
   * Whether a single input that is a crash report comes back as one (default true). Off
   * where an input is one of many condensed apart (partials, cluster jobs), so that it is
   * read as a log, as it would be among the others.
   */
  crashReports?: boolean;
  /**
   * Sees every byte that is condensed, in order, synchronously (before a chunk is handed
   * to a worker): how the MCP server keeps exactly what was read behind a handle.
   */
  tap?: (bytes: Buffer) => void;
}

export interface ReadProgress {
  bytes: number;
  /** Where every input's size is known beforehand (not for gzip or stdin). */
  totalBytes: number | undefined;
  inputsDone: number;
  inputs: number;
}

export interface ResolvedOptions {
  top: number;
  workers: number | 'auto';
  chunkBytes: number;
  maxBytes: number | undefined;
  textBudget: number;
  signal: AbortSignal | undefined;
  onProgress: CondenseLogOptions['onProgress'];
  tap: CondenseLogOptions['tap'];
  skipBadInputs: boolean | undefined;
  crashReports: boolean;
}

function integerIn(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** Checked once at the edge; past here the values are trusted. */
export function resolveOptions(o: CondenseLogOptions = {}): ResolvedOptions {
  return {
    top: o.top === undefined ? DEFAULT_TOP : integerIn('top', o.top, 1, 1000),
    workers: o.workers === undefined ? 'auto' : integerIn('workers', o.workers, 0, 64),
    chunkBytes: o.chunkBytes === undefined ? DEFAULT_CHUNK_BYTES : integerIn('chunkBytes', o.chunkBytes, 1, 256 * 1024 * 1024),
    maxBytes: o.maxBytes === undefined ? undefined : integerIn('maxBytes', o.maxBytes, 1, Number.MAX_SAFE_INTEGER),
    textBudget: o.textBudget === undefined ? 10_000 : integerIn('textBudget', o.textBudget, 500, 1_000_000),
    signal: o.signal,
    onProgress: o.onProgress,
    tap: o.tap,
    skipBadInputs: o.skipBadInputs,
    crashReports: o.crashReports ?? true,
  };
}

import { integerOption } from '../core/validate.js';
import { resolveRunOptions, type ResolvedRunOptions, type RunOptions } from '../pipeline/options.js';
import { DEFAULT_CHUNK_BYTES } from '../split/line-chunks.js';

/** The agent path's input cap: past it, the tail is kept (the MCP server and `--max-bytes 8M`). */
export const AGENT_MAX_BYTES = 8 * 1024 * 1024;
export const DEFAULT_TOP = 30;

export interface CondenseLogOptions extends RunOptions {
  /** How many groups to show (1..1000). Default 30. */
  top?: number;
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
}

export interface ResolvedLogOptions extends ResolvedRunOptions {
  top: number;
  skipBadInputs: boolean | undefined;
  crashReports: boolean;
}

/** Checked once at the edge; past here the values are trusted. */
export function resolveLogOptions(o: CondenseLogOptions = {}): ResolvedLogOptions {
  return {
    ...resolveRunOptions(o, {
      chunkBytes: DEFAULT_CHUNK_BYTES,
      maxBytes: undefined,
      overMaxBytes: 'keep-tail',
      policies: ['keep-tail', 'refuse'],
    }),
    top: integerOption('top', o.top, DEFAULT_TOP, 1, 1000),
    skipBadInputs: o.skipBadInputs,
    crashReports: o.crashReports ?? true,
  };
}

import type { ToolExtra } from '../context.js';
import type { CommandOutcome } from './command-facts.js';

/** The MCP result shows fewer groups than the CLI by default: a few KB, not ten. */
export const MCP_TOP = 20;

/** One condense_log call (or run_and_condense's log half): what the answer depends on besides the input. */
export interface CondenseCall {
  top: number | undefined;
  signal: AbortSignal;
  extra: ToolExtra;
  /** What the source could not see (another user's journal entries), for the result's notes. */
  notes?: string[];
  /** For a command's output: what the result says first. */
  command?: CommandOutcome;
}

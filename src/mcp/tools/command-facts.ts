import { z } from 'zod';
import { redact } from '../../redact/index.js';
import type { CommandResult } from '../../input/command.js';
import type { RanCommand } from '../commands.js';
import { mb } from '../context.js';

export type CommandOutcome = RanCommand;

export const commandFactsShape = z.object({
  argv: z.array(z.string()).describe('The command as run (redacted).'),
  exitStatus: z.number().int().nullable().describe('Its exit status; null when a signal ended it.'),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  droppedBytes: z.number().int().describe('Output bytes of the head dropped to keep the last 8 MiB.'),
  allowedBy: z.enum(['allowlist', 'approved']),
  sandbox: z.string().describe('bwrap, sandbox-exec, or none (--no-sandbox).'),
});

export function commandFacts(c: CommandOutcome): z.infer<typeof commandFactsShape> {
  return {
    argv: c.result.argv.map(redact),
    exitStatus: c.result.exitStatus,
    signal: c.result.signal,
    timedOut: c.result.timedOut,
    droppedBytes: c.result.droppedBytes,
    allowedBy: c.allowedBy,
    sandbox: c.sandbox,
  };
}

/** What a command's result says before anything else: that it failed, and what was dropped. */
export function commandPreamble(c: CommandOutcome): string {
  let s = '';
  const warning = commandWarning(c.result);
  if (warning !== undefined) s += `${warning}\n`;
  if (c.result.droppedBytes > 0) s += `note: the command printed ${mb(c.result.droppedBytes)} MB more than kept; the last part was kept\n`;
  return s;
}

/** Whether the command failed or timed out: the result's text must then say so first. */
export function commandFailed(r: CommandResult): boolean {
  return r.timedOut || r.exitStatus !== 0;
}

/** The warning line an agent reads first when a command did not succeed (its first line of output, redacted). */
export function commandWarning(r: CommandResult): string | undefined {
  if (!commandFailed(r)) return undefined;
  const how = r.timedOut ? 'timed out and was stopped' : r.exitStatus === null ? `was killed by ${r.signal ?? 'a signal'}` : `exited with status ${r.exitStatus}`;
  const text = r.output.toString('utf8');
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '(no output)';
  return `WARNING: the command ${how}; first line of output: ${redact(firstLine.slice(0, 300))}`;
}

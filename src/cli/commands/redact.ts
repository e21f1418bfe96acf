import { parseArgs } from 'node:util';
import { WispError } from '../../core/errors.js';
import { redactStream } from '../../redact/stream.js';
import type { CommandRunner } from '../io.js';
import { watchOutput, writeFailed } from '../output.js';

export const REDACT_USAGE = 'wisp redact < FILE  (stdin to stdout, one redacted line per input line)';

/**
 * `wisp redact`: stdin to stdout, one redacted line per input line, streaming. Useful in
 * itself: pipe a log through it before sharing it.
 */
export const runRedact: CommandRunner = async (args, io) => {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: false; options: { help: { type: 'boolean'; short: 'h'; default: false } } }>>;
  try {
    parsed = parseArgs({ args, allowPositionals: false, options: { help: { type: 'boolean', short: 'h', default: false } } });
  } catch (err) {
    throw new WispError('WISP_BAD_ARGUMENT', `${(err as Error).message.split('\n')[0]} usage: ${REDACT_USAGE}`, { cause: err });
  }
  if (parsed.values.help) {
    io.stdout.write(`usage: ${REDACT_USAGE}\n`);
    return 0;
  }
  if ((io.stdin as { isTTY?: boolean }).isTTY) {
    throw new WispError('WISP_BAD_ARGUMENT', `no input: pipe text in; usage: ${REDACT_USAGE}`);
  }
  // A reader that went away (`wisp redact < log | head`) ends the output quietly; any
  // other write error ends the run and is reported.
  const output = watchOutput(io.stdout);
  const sink = {
    write: (chunk: string): boolean => {
      if (output.failure !== undefined) throw writeFailed(output.failure);
      return output.closed ? true : io.stdout.write(chunk);
    },
    // A write error while waiting for drain wakes the writer too: no drain follows one.
    once: (_event: 'drain', listener: () => void): void => {
      if (output.closed || output.failure !== undefined) {
        listener();
        return;
      }
      const wake = (): void => {
        io.stdout.off('drain', wake);
        io.stdout.off('error', wake);
        listener();
      };
      io.stdout.once('drain', wake);
      io.stdout.once('error', wake);
    },
  };
  try {
    await redactStream(io.stdin as AsyncIterable<Buffer | string>, sink);
  } finally {
    output.stop();
  }
  if (output.failure !== undefined) throw writeFailed(output.failure);
  return 0;
};

import { parseArgs } from 'node:util';
import { WispError } from '../../core/errors.js';
import { redactStream } from '../../redact/stream.js';
import type { CommandRunner } from '../io.js';

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
  // other write error is reported.
  let closed = false;
  let failure: Error | undefined;
  const onError = (err: NodeJS.ErrnoException): void => {
    if (err.code === 'EPIPE') closed = true;
    else failure = err;
  };
  io.stdout.on('error', onError);
  const sink = {
    write: (chunk: string): boolean => {
      if (failure !== undefined) throw failure;
      return closed ? true : io.stdout.write(chunk);
    },
    once: (event: 'drain', listener: () => void) => (closed ? listener() : io.stdout.once(event, listener)),
  };
  try {
    await redactStream(io.stdin as AsyncIterable<Buffer | string>, sink);
  } finally {
    io.stdout.off('error', onError);
  }
  if (failure !== undefined) throw failure;
  return 0;
};

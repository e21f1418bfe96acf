import { WispError } from '../core/errors.js';

/**
 * What became of stdout while a command wrote its result. A reader that went away
 * (`wisp redact < log | head`) is `closed`: output stops quietly, as it does for `cat`. Any
 * other write error (a full disk) is a `failure` the run must report: left unheard, node
 * ends the process with the stream's stack.
 */
export interface OutputWatch {
  readonly closed: boolean;
  readonly failure: NodeJS.ErrnoException | undefined;
  stop(): void;
}

export function watchOutput(stream: NodeJS.WritableStream): OutputWatch {
  const watch = {
    closed: false,
    failure: undefined as NodeJS.ErrnoException | undefined,
    stop: (): void => {
      stream.off('error', onError);
    },
  };
  const onError = (err: NodeJS.ErrnoException): void => {
    if (err.code === 'EPIPE') watch.closed = true;
    else watch.failure ??= err;
  };
  stream.on('error', onError);
  return watch;
}

/** A write error as wisp reports it: what failed and the system's word for why. */
export function writeFailed(err: NodeJS.ErrnoException): WispError {
  const why = err.code === 'ENOSPC' ? 'no space left on device' : err.message.replace(/^\w+: /, '').replace(/, write$/, '');
  return new WispError('WISP_WRITE_FAILED', `could not write the result to stdout: ${why}${err.code ? ` (${err.code})` : ''}`, { cause: err });
}

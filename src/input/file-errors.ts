import { WispError } from '../core/errors.js';

/**
 * A file system error as wisp reports it: a stable code, the path, and the original error
 * as its cause. `noun` names what the path should have been (`a log file`, `a file`).
 */
export function fileError(path: string, err: unknown, noun = 'file'): WispError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new WispError('WISP_FILE_NOT_FOUND', `${path}: no such file`, { cause: err });
  if (code === 'ENOTDIR') return new WispError('WISP_FILE_NOT_FOUND', `${path}: a parent is not a directory`, { cause: err });
  if (code === 'EISDIR') return new WispError('WISP_NOT_A_FILE', `${path} is a directory, not ${noun}`, { cause: err });
  if (code === 'EACCES' || code === 'EPERM') return new WispError('WISP_UNREADABLE', `${path}: permission denied`, { cause: err });
  return new WispError('WISP_UNREADABLE', `${path}: ${(err as Error | undefined)?.message ?? String(err)}`, { cause: err });
}

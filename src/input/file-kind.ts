import type { Stats } from 'node:fs';
import { WispError } from '../core/errors.js';

const SPECIAL_KINDS: [(s: Stats) => boolean, string][] = [
  [(s) => s.isFIFO(), 'a FIFO (named pipe)'],
  [(s) => s.isSocket(), 'a socket'],
  [(s) => s.isCharacterDevice(), 'a character device'],
  [(s) => s.isBlockDevice(), 'a block device'],
];

/**
 * Throws WISP_NOT_A_FILE unless `info` (the stat of `path`) is a regular file. FIFOs,
 * sockets and devices are refused before anything opens them: opening a FIFO for reading
 * waits for a writer, forever, and a device may never end. `noun` names what the path
 * should have been (`a log file`, `a file`); `hint`, what to do instead.
 */
export function assertRegularFile(path: string, info: Stats, noun = 'a file', hint = 'copy its content into a file'): void {
  if (info.isDirectory()) throw new WispError('WISP_NOT_A_FILE', `${path} is a directory, not ${noun}`, { hint: 'name the files inside it' });
  for (const [is, what] of SPECIAL_KINDS) {
    if (is(info)) {
      throw new WispError('WISP_NOT_A_FILE', `${path} is ${what}, not a regular file; wisp reads regular files only, since reading it could wait forever`, { hint });
    }
  }
  if (!info.isFile()) throw new WispError('WISP_NOT_A_FILE', `${path} is not a regular file`);
}

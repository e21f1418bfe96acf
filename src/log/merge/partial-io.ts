import { readFile, rename, writeFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { WispError } from '../../core/errors.js';
import { fileError } from '../../input/file-errors.js';
import { parsePartialFile, type PartialFile } from './partial-file.js';

/** Writes a partial as JSON (gzipped when the name ends in .gz), atomically: a reader never sees half of one. */
export async function writePartial(path: string, partial: PartialFile): Promise<void> {
  const json = Buffer.from(JSON.stringify(partial));
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, path.endsWith('.gz') ? gzipSync(json) : json);
  await rename(tmp, path);
}

export async function readPartial(path: string): Promise<PartialFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw fileError(path, err, 'a partial');
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      throw new WispError('WISP_BAD_GZIP', `${path}: unreadable gzip data (${(err as Error).message})`, { cause: err });
    }
  }
  return parsePartialFile(bytes.toString('utf8'), path);
}

import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { WispError } from '../core/errors.js';

/** gzip's magic number: inputs are recognised as gzip by content, not by name. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** The decompressed bytes of a gzip stream; damaged data is WISP_BAD_GZIP, even half-way. */
export async function* gunzip(raw: NodeJS.ReadableStream, name: string): AsyncGenerator<Buffer> {
  const inflate = createGunzip({ chunkSize: 256 * 1024 });
  const piped = (raw as Readable).pipe(inflate);
  (raw as Readable).on('error', (err) => inflate.destroy(err));
  try {
    for await (const chunk of piped) yield chunk as Buffer;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code?.startsWith('Z_') || /incorrect header|unexpected end|invalid/i.test(e.message)) {
      throw new WispError('WISP_BAD_GZIP', `${name}: unreadable gzip data (${e.message})`, { hint: 'check that the file is complete', cause: err });
    }
    throw err;
  } finally {
    (raw as Readable).destroy();
  }
}

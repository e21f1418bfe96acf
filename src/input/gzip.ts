import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { WispError } from '../core/errors.js';
import { formatCount } from '../core/text.js';

/** gzip's magic number: inputs are recognised as gzip by content, not by name. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * The decompressed bytes of a gzip stream; damaged data is WISP_BAD_GZIP, even half-way.
 * A stream that ends early is refused too, though what came before could be read: zlib
 * says the same of a file cut short and of one cut short with other bytes after, and from
 * those bytes it decodes lines that look like the log's own (copies of earlier text with
 * other digits). The error says how far the text went, and how to read it anyway.
 */
export async function* gunzip(raw: NodeJS.ReadableStream, name: string): AsyncGenerator<Buffer> {
  const inflate = createGunzip({ chunkSize: 256 * 1024 });
  const piped = (raw as Readable).pipe(inflate);
  (raw as Readable).on('error', (err) => inflate.destroy(err));
  let decoded = 0;
  try {
    for await (const chunk of piped) {
      decoded += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'Z_BUF_ERROR' && /unexpected end/i.test(e.message)) {
      throw new WispError('WISP_BAD_GZIP', `${name}: the gzip data ends early, after ${formatCount(decoded)} bytes of text: the file was cut short, or damaged`, {
        hint: `its end cannot be told from damage; to read it anyway, damage and all: zcat ${name} | wisp log -`,
        cause: err,
      });
    }
    if (e.code?.startsWith('Z_') || /incorrect header|unexpected end|invalid/i.test(e.message)) {
      throw new WispError('WISP_BAD_GZIP', `${name}: unreadable gzip data (${e.message})`, { hint: 'check that the file is complete', cause: err });
    }
    throw err;
  } finally {
    (raw as Readable).destroy();
  }
}

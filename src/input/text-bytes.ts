/**
 * Bytes of a text log as the readers expect them, UTF-8 from the first character: NUL bytes
 * before the first other byte (a file preallocated, or truncated while a writer kept its
 * offset, reads as zeros first) are skipped and counted, and a file that starts with a
 * UTF-16 byte order mark (LE or BE) is decoded to UTF-8. What was done is said in `notes`
 * once the input has been read.
 */
import { TextDecoder } from 'node:util';

const byteOrder = (b: Buffer): TextDecoder | undefined =>
  b[0] === 0xff && b[1] === 0xfe ? new TextDecoder('utf-16le') : b[0] === 0xfe && b[1] === 0xff ? new TextDecoder('utf-16be') : undefined;

/** Whether bytes that start with `head` (a file's first two, or all of a shorter one) go to the reader as they are: no leading NUL, no byte order mark. */
export const readsAsIs = (head: Buffer): boolean => head.length > 0 && head[0] !== 0 && (head.length < 2 || byteOrder(head) === undefined);

export async function* textBytes(chunks: AsyncIterable<Buffer>, name: string, notes: string[]): AsyncGenerator<Buffer> {
  let state: 'leading-nul' | 'byte-order' | 'utf-8' | 'utf-16' = 'leading-nul';
  let nulBytes = 0;
  let pending: Buffer = Buffer.alloc(0);
  let decoder: TextDecoder | undefined;
  for await (const chunk of chunks) {
    let b = chunk;
    if (state === 'leading-nul') {
      let k = 0;
      while (k < b.length && b[k] === 0) k++;
      nulBytes += k;
      b = b.subarray(k);
      if (b.length === 0) continue;
      state = 'byte-order';
    }
    if (state === 'byte-order') {
      // Two bytes tell a byte order mark; the first may come alone, and is copied to wait
      // (the source may fill its buffer again). A first buffer that holds both is read as
      // it is: a copy of it would be a megabyte of fresh memory.
      pending = pending.length === 0 ? b : Buffer.concat([pending, b]);
      if (pending.length < 2) {
        pending = Buffer.from(pending);
        continue;
      }
      b = pending;
      decoder = byteOrder(b);
      state = decoder === undefined ? 'utf-8' : 'utf-16';
    }
    if (decoder === undefined) yield b;
    else {
      // The BOM is dropped by the decoder; a code unit split between chunks waits for its other half.
      const text = decoder.decode(b, { stream: true });
      if (text.length > 0) yield Buffer.from(text, 'utf8');
    }
  }
  if (state === 'byte-order' && pending.length > 0) yield pending;
  if (decoder !== undefined) {
    const rest = decoder.decode();
    if (rest.length > 0) yield Buffer.from(rest, 'utf8');
    notes.push(`${name} is UTF-16 (${decoder.encoding === 'utf-16le' ? 'little' : 'big'}-endian): read decoded to UTF-8; its byte counts are of the decoded text`);
  }
  if (nulBytes > 0) notes.push(`${name} starts with ${nulBytes} NUL bytes: skipped, the text after them was read`);
}

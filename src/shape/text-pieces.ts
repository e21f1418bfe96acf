/**
 * A byte stream as UTF-8 text in pieces of a fixed byte size, for the tokenizer
 * (tokens.ts), which answers each piece with an array of every token in it:
 *
 * - small pieces keep that array small (a 16 MiB head fed whole is millions of token
 *   objects alive at once), and stay ordinary heap strings (Node hands back decoded text
 *   of a megabyte or more as an external string), so what a token's text pins is small;
 * - fixed byte boundaries, whatever sizes the source's chunks come in (a pipe's vary from
 *   run to run), keep the tokenizer's error, which names the piece it stopped in, the same
 *   on every run.
 */

export const PIECE_BYTES = 64 * 1024;

export async function* textPieces(chunks: AsyncIterable<Buffer>, pieceBytes = PIECE_BYTES): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const piece of bytePieces(chunks, pieceBytes)) {
    const text = decoder.decode(piece, { stream: true });
    if (text.length > 0) yield text;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

/** `chunks` cut and joined into pieces of exactly `size` bytes (the last may be shorter). */
export async function* bytePieces(chunks: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  /** The start of the next piece, when it spans chunks. */
  const parts: Buffer[] = [];
  let partsLength = 0;
  for await (const chunk of chunks) {
    let at = 0;
    if (partsLength > 0) {
      at = Math.min(size - partsLength, chunk.length);
      parts.push(chunk.subarray(0, at));
      partsLength += at;
      if (partsLength < size) continue;
      yield Buffer.concat(parts, partsLength);
      parts.length = 0;
      partsLength = 0;
    }
    for (; at + size <= chunk.length; at += size) yield chunk.subarray(at, at + size);
    if (at < chunk.length) {
      parts.push(chunk.subarray(at));
      partsLength = chunk.length - at;
    }
  }
  if (partsLength > 0) yield Buffer.concat(parts, partsLength);
}

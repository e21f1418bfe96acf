/**
 * Streamed input as UTF-8 text in pieces of a fixed byte size, for the tokenizer
 * (tokens.ts), which answers each piece with an array of every token in it:
 *
 * - small pieces keep that array small (a 16 MiB head fed whole is millions of token
 *   objects alive at once), and stay ordinary heap strings (Node hands back decoded text
 *   of a megabyte or more as an external string), so what a token's text pins is small;
 * - the bytes are read into one buffer, used again for every piece;
 * - fixed byte boundaries, whatever sizes the source reads in (a pipe's vary from run to
 *   run), keep the tokenizer's error, which names the piece it stopped in, the same on
 *   every run.
 */

import type { Fill } from './byte-source.js';

export const PIECE_BYTES = 64 * 1024;

export async function* textPieces(fill: Fill, pieceBytes = PIECE_BYTES): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const piece = Buffer.allocUnsafeSlow(pieceBytes);
  for (;;) {
    const n = await fill(piece);
    const text = decoder.decode(n === piece.length ? piece : piece.subarray(0, n), { stream: true });
    if (text.length > 0) yield text;
    if (n < piece.length) break;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

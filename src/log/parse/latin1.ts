/**
 * A line's bytes as latin1, one char a byte, so that offsets in the string are offsets in
 * the bytes: headers and shapes are read this way (their fields are ASCII).
 * Buffer#latin1Slice skips toString's argument checks; the line loop calls it per line.
 */
export const latin1 = (buf: Buffer, s: number, e: number): string =>
  (buf as Buffer & { latin1Slice(start: number, end: number): string }).latin1Slice(s, e);

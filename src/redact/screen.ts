/**
 * A byte-level screen in front of redact(): whether a line may hold anything the rules
 * would change. It runs the scan that redact() itself runs to decide which rules to apply
 * (scan.ts), over the line's bytes, and stops at the first condition that holds. So it is
 * sound by construction: when it says false, no rule's condition holds, redact() applies no
 * rule and returns the line unchanged. Nothing is allocated; one pass over the bytes, in
 * native code (native/src/redact_scan.c), a chunk's lines in one call.
 *
 * Bytes are read as UTF-8 with every byte >= 0x80 a separator, as the scan of a string
 * reads every non-ASCII character: for valid UTF-8 the verdict is the one redact() reaches
 * on the decoded line. Invalid sequences decode to U+FFFD, also a separator.
 */
import { RULE_SET } from './rule-set.js';

/** False only when redact() of the line `bytes[start, end)` (decoded as UTF-8) returns it unchanged. */
export function mayNeedRedaction(bytes: Uint8Array, start: number, end: number): boolean {
  return RULE_SET.scanner.any(bytes, start, end);
}

/** The flags screenLines writes, reused: one byte per line of the largest range screened in this thread. */
let flags = new Uint8Array(0);

/**
 * mayNeedRedaction for every line of `bytes[start, end)` at once (lines split at `\n`, a
 * `\r` before it left out, as a chunk's lines are read), in one native call: line k (from
 * 0) may need redaction when the k-th byte of the array returned is 1. The array is reused
 * by the next call in this thread.
 */
export function screenLines(bytes: Uint8Array, start: number, end: number): Uint8Array {
  // A range of n bytes holds at most n lines (each line but an empty last one ends with a byte of its own).
  if (flags.length < end - start) flags = new Uint8Array(Math.max(end - start, 2 * flags.length));
  const lines = RULE_SET.scanner.screenLines(bytes, start, end, flags);
  return flags.subarray(0, lines);
}

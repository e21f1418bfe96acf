/**
 * A byte-level screen in front of redact(): whether a line may hold anything the rules
 * would change. It runs the scan that redact() itself runs to decide which rules to apply
 * (scan.ts), over the line's bytes, and stops at the first condition that holds. So it is
 * sound by construction: when it says false, no rule's condition holds, redact() applies no
 * rule and returns the line unchanged. Nothing is allocated; one pass over the bytes.
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

/**
 * Where a message starts behind its header. A line's header (host, process, logger,
 * thread, level) says where an event was logged, not which event it is: grouping reads
 * the message without it, and rendering cuts the header, not the message.
 */

/** A source field ending a header: `sshd(pam_unix)[<PID>]:`, `org.apache.Foo:`, `[main]:`. */
const SOURCE_FIELD = /^[^\s:]*[.()[\]$<>_/][^\s]*:$/;
const LEVEL_LETTER = /^[VDIWEF]$/;
const HEADER_TOKENS = 12;
/** A token that names or numbers rather than says: a placeholder, a digit, or `. _ - / @ [`. */
const IDENTIFIER = /[<\d._\-/@[]/;
const HEADER_RUN = 3;

/**
 * How many of the leading tokens (whitespace-separated) are header: up to the first
 * source field among the first few tokens, or a plain name after a one-letter level
 * (Android's `D WindowManager:`); without either, a leading run of identifier-like tokens
 * (`<NUM> node-<NUM> unix.hw state_change.unavailable ...`) of at least HEADER_RUN tokens
 * that words follow. 0 when there is no header.
 */
export function headerTokenCount(tokens: readonly string[]): number {
  const limit = Math.min(tokens.length - 1, HEADER_TOKENS);
  for (let i = 0; i < limit; i++) {
    const t = tokens[i]!;
    if (!t.endsWith(':')) continue;
    if (SOURCE_FIELD.test(t) || (i > 0 && LEVEL_LETTER.test(tokens[i - 1]!))) return i + 1;
    break;
  }
  let run = 0;
  while (run < limit && IDENTIFIER.test(tokens[run]!)) run++;
  return run >= HEADER_RUN && tokens.length - run >= 2 ? run : 0;
}

/** The character offset in `text` after its first `count` whitespace-separated tokens and the blanks after them. */
export function afterTokens(text: string, from: number, count: number): number {
  let i = from;
  for (let k = 0; k < count; k++) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    while (i < text.length && text[i] !== ' ' && text[i] !== '\t') i++;
  }
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

/**
 * Markers replace what was removed. They name the kind so the reader knows what stood
 * there, and they are built from brackets and a lowercase word so that no rule (and no
 * secret scanner downstream) mistakes a marker for a secret.
 */
export const marker = (kind: string): string => `[REDACTED:${kind}]`;

/**
 * True when the value is, or starts with, a marker left by an earlier rule, also behind an
 * escaped quote (`\u0022[REDACTED:...`, `%22[REDACTED:...`: what the decoded view leaves).
 */
export const isMarker = (value: string): boolean => value.startsWith('[REDACTED:') || /^(?:\\u00(?:22|27)|%2[27])\[REDACTED:/i.test(value);

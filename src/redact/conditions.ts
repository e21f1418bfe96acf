/**
 * What must occur in a text before a rule can change it. Every rule declares its
 * conditions; one scan of the text (scan.ts) finds which hold, the rule set runs only the
 * rules with a condition that holds, and the byte screen (screen.ts) answers "may need
 * redaction" from the same scan. So the screen cannot drift from the rules: a text where
 * no condition holds is returned unchanged because no rule runs on it.
 *
 * A condition is a necessary one, never a verdict: it only has to hold wherever its rule
 * would change something, and to fail on most ordinary text so that the screen stays
 * selective. Conditions look at ASCII only and treat every other byte (or UTF-16 unit) as
 * a separator, so a scan over UTF-8 bytes and one over the decoded string agree.
 */

/**
 * What must surround a keyword for the hit to count. Identifier characters are
 * `[A-Za-z0-9_.-]`; token characters `[A-Za-z0-9_.~+/=-]`; blanks are spaces and tabs.
 */
export type Context =
  /** The keyword alone. */
  | { kind: 'any' }
  /** `key=`, `key: `, `"key": `, `key =>`: identifier characters, a closing quote or bracket, blanks, then `=` or `:`. */
  | { kind: 'assign' }
  /** `--key value`: the identifier holding the keyword starts with `-`, and a blank follows it. */
  | { kind: 'flag' }
  /** `key<blanks>value`: identifier, 1-4 blanks, an optional quote, then 16 or more token characters. */
  | { kind: 'spaced' }
  /** `KEY value` as a whole line: only blanks and at most one short word before the key, one word after it. */
  | { kind: 'line' }
  /** `password 'x'`: 1-4 blanks, then a quote. */
  | { kind: 'quote' }
  /** `<key>`, `<ns:Key>`: the identifier holding the keyword is preceded by `<` or `:`. */
  | { kind: 'xml' }
  /** `name: KEY`, `key="KEY"`: the identifier holding the keyword is the value of a `name` or `key` field. */
  | { kind: 'named' }
  /** `scheme://...@`: an `@` before the authority ends. */
  | { kind: 'url-at' }
  /** `local@domain.tld`. */
  | { kind: 'email' }
  /** `Bearer xyz`: 1-4 blanks, then at least `min` token characters. */
  | { kind: 'scheme'; min: number }
  /** A provider prefix: at least `min` token characters right after the keyword. */
  | { kind: 'tail'; min: number }
  /** A vendor's name: a run of 16 or more token characters within the next 256 bytes. */
  | { kind: 'vendor' };

/** Shapes that keyword-less rules need, found in the same scan. */
export type Shape =
  /** 40 or more base64 characters in a row, with upper case, lower case and a digit (AWS secret keys). */
  | 'base64-40'
  /** 32 or more hex digits right before a `-` (Mailgun and Mailchimp keys). */
  | 'hex32-dash'
  /** 23 or more `[A-Za-z0-9_-]` right before a `.` (Discord tokens). */
  | 'token-dot'
  /** 13 or more digits in groups joined by single spaces or dashes, the first group starting with 2-6. */
  | 'card'
  /** Digit groups of 3, 2 and 4 joined by the same single space or dash. */
  | 'ssn'
  /** Digit groups in one of the national phone layouts, or `+` and 8 or more digits. */
  | 'phone'
  /** A dotted quad that is a public, non-network address. */
  | 'ipv4'
  /** Two capitals of an IBAN country, two digits, then 8 or more capitals and digits. */
  | 'iban'
  /** The whole text is one line of base64 (blanks, quotes and a trailing comma aside) with 8 or more mixed characters in a row. */
  | 'key-material-line';

export type Condition =
  | { kind: 'keyword'; words: readonly string[]; context: Context }
  | { kind: 'shape'; shape: Shape }
  /** Every part must hold somewhere in the text (`curl` and `-u`). */
  | { kind: 'all'; parts: readonly { words: readonly string[]; context: Context }[] };

export const keywords = (words: readonly string[], context: Context = { kind: 'any' }): Condition => ({ kind: 'keyword', words, context });
export const shape = (s: Shape): Condition => ({ kind: 'shape', shape: s });
export const allOf = (...parts: { words: readonly string[]; context?: Context }[]): Condition => ({
  kind: 'all',
  parts: parts.map((p) => ({ words: p.words, context: p.context ?? { kind: 'any' } })),
});

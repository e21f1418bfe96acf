import type { Condition } from './conditions.js';
import { Scanner } from './scan.js';

/**
 * A rule is one regex and the conditions under which it can change a text. Rules run in
 * order over the text; each replaces what it recognises with a marker, so later, more
 * general rules see the marker (which no rule matches) instead of the secret.
 */

/** What a replacer sees: the match, its capture groups, where it starts, and the whole text. */
export interface Match {
  text: string;
  groups: readonly (string | undefined)[];
  offset: number;
  input: string;
}

export interface Rule {
  /** For tests and diagnostics: which family the rule belongs to. */
  readonly name: string;
  /**
   * What must occur in the text for the rule to change it (any one of these). Found by
   * one scan for all rules before any regex runs (the keyword pass of gitleaks and
   * trufflehog, with shapes for the rules that have no keyword), and shared with the byte
   * screen: a text where no rule's condition holds is left as it is.
   */
  readonly when: readonly Condition[];
  /** A global regex written without nested or overlapping unbounded quantifiers. */
  readonly pattern: RegExp;
  /** The replacement; return `m.text` to leave the match as it is. */
  readonly replace: (m: Match) => string;
}

export function applyRule(rule: Rule, text: string): string {
  rule.pattern.lastIndex = 0;
  return text.replace(rule.pattern, (...args: unknown[]) => {
    // replace() passes: match, ...groups, offset, input (no named groups are used).
    const input = args[args.length - 1] as string;
    const offset = args[args.length - 2] as number;
    const groups = args.slice(1, -2) as (string | undefined)[];
    return rule.replace({ text: args[0] as string, groups, offset, input });
  });
}

const encoder = new TextEncoder();

/**
 * An ordered list of rules with their conditions compiled once: `apply` scans the text
 * once, then runs, in order, the rules whose conditions hold.
 */
export class RuleSet {
  readonly #rules: readonly Rule[];
  readonly scanner: Scanner;
  #buffer = new Uint8Array(1024);

  constructor(rules: readonly Rule[]) {
    this.#rules = rules;
    this.scanner = new Scanner(rules.map((r) => r.when));
  }

  /** The UTF-8 bytes of `text`, in a buffer reused between calls. */
  encode(text: string): { bytes: Uint8Array; length: number } {
    if (this.#buffer.length < text.length * 3) this.#buffer = new Uint8Array(text.length * 3);
    const { written } = encoder.encodeInto(text, this.#buffer);
    return { bytes: this.#buffer, length: written };
  }

  /** Which rules may change `text` (one flag per rule, in order). */
  rulesFor(text: string): Uint8Array {
    const { bytes, length } = this.encode(text);
    return this.scanner.rulesToRun(bytes, 0, length);
  }

  /** Runs the rules flagged in `run` (from rulesFor over this text or a text holding it). */
  apply(text: string, run: Uint8Array = this.rulesFor(text)): string {
    let out = text;
    for (let r = 0; r < this.#rules.length; r++) if (run[r] === 1) out = applyRule(this.#rules[r]!, out);
    return out;
  }

  /** Every rule, whatever the scan says: the reference the conditions are tested against. */
  applyAll(text: string): string {
    let out = text;
    for (const rule of this.#rules) out = applyRule(rule, out);
    return out;
  }

  get rules(): readonly Rule[] {
    return this.#rules;
  }
}

/** The i-th capture group of a match, or '' when the group took no part. */
export const g = (m: Match, i: number): string => m.groups[i] ?? '';

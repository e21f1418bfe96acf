import { KeywordSet } from './keywords.js';

/**
 * A rule is one regex with a cheap literal pre-check. Rules run in order over the text;
 * each replaces what it recognises with a marker, so later, more general rules see the
 * marker (which no rule matches) instead of the secret.
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
   * Lowercase literals, one of which the lowercased text must contain before the regex
   * runs (the keyword pass of gitleaks and trufflehog). Empty: the rule always runs.
   */
  readonly keywords: readonly string[];
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

/**
 * An ordered list of rules with their keyword pass built once: `apply` scans the text for
 * all keywords in one pass, then runs, in order, the rules with a keyword present.
 */
export class RuleSet {
  readonly #rules: readonly Rule[];
  readonly #keywords: KeywordSet;
  /** For each rule, the ids of its keywords; empty: the rule always runs. */
  readonly #keywordIds: readonly (readonly number[])[];

  constructor(rules: readonly Rule[]) {
    this.#rules = rules;
    const ids = new Map<string, number>();
    for (const rule of rules) for (const k of rule.keywords) if (!ids.has(k)) ids.set(k, ids.size);
    this.#keywords = new KeywordSet([...ids.keys()]);
    this.#keywordIds = rules.map((rule) => rule.keywords.map((k) => ids.get(k)!));
  }

  apply(text: string): string {
    const found = this.#keywords.scan(text);
    let out = text;
    for (let r = 0; r < this.#rules.length; r++) {
      const ids = this.#keywordIds[r]!;
      if (ids.length > 0 && !ids.some((id) => found[id] === 1)) continue;
      out = applyRule(this.#rules[r]!, out);
    }
    return out;
  }
}

/** The i-th capture group of a match, or '' when the group took no part. */
export const g = (m: Match, i: number): string => m.groups[i] ?? '';

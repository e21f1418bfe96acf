import { RuleSet } from './rule.js';
import { RULES } from './rules/index.js';

/** The rules with their conditions compiled once: what redact() and the byte screen share. */
export const RULE_SET = new RuleSet(RULES);

/** Every rule's name (provider kinds, structure and assignment families, personal data), in run order. */
export const RULE_NAMES: readonly string[] = [...new Set(RULES.map((r) => r.name))];

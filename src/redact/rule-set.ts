import { ESCAPED_TEXT } from './decoded-view.js';
import { RuleSet } from './rule.js';
import { RULES } from './rules/index.js';

/**
 * The rules with their conditions compiled once: what redact() and the byte screen share.
 * Last, the condition that sends escaped text to the decoded view (it changes nothing itself).
 */
export const RULE_SET = new RuleSet([...RULES, ESCAPED_TEXT]);

/** Every rule's name (provider kinds, structure and assignment families, personal data), in run order. */
export const RULE_NAMES: readonly string[] = [...new Set(RULES.map((r) => r.name))];

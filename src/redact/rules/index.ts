/**
 * All rules in the order they run: the most specific first, so that the most precise
 * marker wins and later, more general rules see markers instead of secrets.
 */
import type { Rule } from '../rule.js';
import { assignmentRules } from './assignments.js';
import { personalDataRules } from './personal-data.js';
import { providerTokenRules } from './provider-tokens.js';
import { connectionRules, structureRules } from './structure.js';
import { shapeRules, vendorRules } from './vendor-keywords.js';

export const RULES: readonly Rule[] = [
  ...structureRules, // PEM blocks, JWTs
  ...providerTokenRules, // ghp_, AKIA, sk-ant-, ...
  ...connectionRules, // URL user info, Authorization, Bearer/Basic, curl -u, cookies
  ...assignmentRules, // key=value in every syntax, flags, XML, netrc, SQL
  ...vendorRules, // vendor name near an opaque value
  ...shapeRules, // AWS secret access keys by shape
  ...personalDataRules, // emails, cards, IBANs, SSNs, phones, public IPv4
];

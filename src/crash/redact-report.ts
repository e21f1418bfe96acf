import { redact } from '../redact/index.js';
import type { CrashReport } from './types.js';

/**
 * The report with every string in it redacted: an exception reason, a termination reason,
 * an application-specific message or a path can hold a token, a key or an email, and the
 * parsed report is shown as it is (`--json`, the MCP result), not only rendered. Paths keep
 * their user names, which redact() leaves alone.
 */
export function redactReport(report: CrashReport): CrashReport {
  return redactStrings(report) as CrashReport;
}

/** The report is the parsers' own shape, a few levels deep, so the walk is bounded by it, not by the input. */
function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
  return value;
}

/**
 * Values that say what a configuration expects, or report a state, rather than being a
 * secret. Redacting them would hide what the reader needs (`${DB_PASSWORD}` tells where
 * the value comes from) and gain nothing.
 */
import { isMarker } from './marker.js';
import { isLowDiversity } from './value-shape.js';

/** Template and reference syntax: `${VAR}`, `$VAR`, `%VAR%`, `{{ x }}`, `<...>`, `$(cmd)`, `%s`, `?`, `:name`, `$1`. */
const TEMPLATE =
  /^(?:\$\{|\$\(|\{\{|\{%|<|\[\[|%\(|#\{)|^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\d|%[A-Za-z_][A-Za-z0-9_]*%|%[sdvqrx]|\{[A-Za-z0-9_.]*\}|\?|:[A-Za-z_]\w*|@[A-Za-z_]\w*)$/;

/** Masks that are already redacted: `****`, `xxxx`, `...`, `•••` (`\u2022`; `\u2026` is `…`: escaped to keep the CLI's bundle ASCII), `[hidden]`. */
const MASK = /^(?:[*xX\u2022#.\u2026_-]{3,}|\[[A-Za-z _-]{0,20}\]|\([A-Za-z _-]{0,20}\))$/;

/** Words that describe a state or stand in for a value. */
const WORDS = new Set([
  'null', 'nil', 'none', 'undefined', 'empty', 'true', 'false', 'yes', 'no', 'on', 'off',
  'enabled', 'disabled', 'required', 'optional', 'missing', 'present', 'absent', 'set', 'unset',
  'expired', 'invalid', 'valid', 'incorrect', 'wrong', 'rejected', 'denied', 'failed', 'failure',
  'error', 'ok', 'success', 'succeeded', 'accepted', 'verified', 'unverified', 'revoked',
  'refreshed', 'rotated', 'changed', 'updated', 'reset', 'sent', 'saved', 'stored', 'generated',
  'created', 'deleted', 'removed', 'cleared', 'provided', 'supplied', 'mismatch', 'matched',
  'redacted', 'hidden', 'masked', 'omitted', 'secret', 'password', 'passwd', 'pass', 'token',
  'apikey', 'api_key', 'key', 'value', 'string', 'str', 'number', 'int', 'bool', 'boolean',
  'bytes', 'any', 'object', 'placeholder', 'example', 'sample', 'dummy', 'changeme', 'change_me',
  'changeit', 'replace_me', 'replaceme', 'todo', 'tbd', 'fixme', 'n/a', 'na', 'unknown', 'default',
  'auto', 'inherit', 'env', 'environment', 'vault', 'keychain', 'prompt', 'stdin', 'file', 'basic',
  'bearer', 'digest', 'oauth', 'oauth2', 'jwt', 'saml', 'ldap', 'local', 'anonymous', 'internal',
  'external', 'redacted', 'sensitive', 'encrypted', 'plaintext', 'not_set', 'notset', 'nope',
  'invalidated', 'issued', 'granted', 'refused', 'renewed', 'confirmed', 'mismatched', 'exists',
  'found', 'loaded', 'cached', 'ignored', 'skipped', 'unchanged', 'weak', 'strong', 'okay', 'good',
  'bad', 'short', 'long', 'expiring', 'expires', 'required.', 'needed', 'reused', 'used', 'unused',
  'leaked', 'compromised', 'locked', 'unlocked', 'blocked', 'allowed', 'forbidden', 'unauthorized',
  'authorized', 'authenticated', 'unauthenticated', 'pending', 'ready', 'done', 'started', 'stopped',
  'received', 'requested', 'returned', 'retrieved', 'fetched', 'parsed', 'decoded', 'encoded',
  'signed', 'unsigned', 'applied', 'attached', 'detached', 'exported', 'imported', 'configured',
  'unconfigured', 'supported', 'unsupported', 'too', 'is', 'was', 'has', 'not', 'for', 'from', 'to',
  'of', 'the', 'a', 'an', 'and', 'or', 'in', 'on', 'at', 'by', 'with', 'without',
]);

export function isPlaceholder(raw: string): boolean {
  const value = raw.trim();
  if (value.length < 3) return true;
  if (isMarker(value)) return true;
  if (TEMPLATE.test(value) || MASK.test(value)) return true;
  const lower = value.toLowerCase();
  if (WORDS.has(lower)) return true;
  // `your-api-key`, `YOUR_TOKEN_HERE`, `<insert key>`, `my-secret-password`, `INSERT_KEY_HERE`
  if (/^(?:your|my)[_\- ]?(?:own[_\- ]?)?(?:secret|password|passwd|pass|token|key|api|app|access|client|db|database|private|auth|account|user)|^(?:insert|enter|put|add|replace|paste)[_\- ]|[_\- ]here$|^(?:xxx|fake|dummy|sample|example)[_-]/i.test(value)) return true;
  if (/\$\{[A-Za-z_][\w.:-]*\}|\{\{[^}]{0,80}\}\}/.test(value)) return true;
  return isLowDiversity(value) && value.length >= 4;
}

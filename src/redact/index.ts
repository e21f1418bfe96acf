/**
 * The one redaction module every shown string passes through (log examples and templates,
 * json_shape examples, command lines, grep_raw lines). Markers are typed and do not look
 * like secrets: `[REDACTED:kind]`.
 *
 * Rules are written without nested or unbounded-overlapping quantifiers so that a long
 * line cannot make them backtrack; the input is capped at MAX_SCAN characters as well.
 */

const MAX_SCAN = 64 * 1024;

const marker = (kind: string): string => `[REDACTED:${kind}]`;

interface Rule {
  kind: string;
  /** A cheap literal test that must pass before the regex runs. */
  hint: RegExp;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const SENSITIVE_KEY =
  '(?:password|passwd|pwd|pass|secret|client_secret|token|access_token|refresh_token|auth_token|api_key|apikey|api-key|private_key|credentials?)';

const RULES: Rule[] = [
  {
    kind: 'private-key',
    hint: /PRIVATE KEY/,
    pattern:
      /(-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----)(?:\\n|\r?\n|\s)[A-Za-z0-9+/=\s\\:,-]{0,20000}?(-----END [A-Z ]{0,40}PRIVATE KEY-----)/g,
    replace: (_m, begin, end) => `${begin}${marker('private-key')}${end}`,
  },
  {
    kind: 'jwt',
    hint: /eyJ/,
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: () => marker('jwt'),
  },
  {
    kind: 'aws-access-key',
    hint: /A[KS]IA/,
    pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
    replace: () => marker('aws-access-key'),
  },
  {
    kind: 'authorization',
    hint: /[Aa]uthorization/,
    pattern: /\b((?:Proxy-)?Authorization["']?\s*[:=]\s*["']?)(?:(Bearer|Basic|Token|Digest|token|bearer|basic)\s+)?[^\s"',;]+/gi,
    replace: (_m, key, scheme) => `${key}${scheme ? `${scheme} ` : ''}${marker('authorization')}`,
  },
  {
    kind: 'url-password',
    hint: /:\/\//,
    pattern: /\b([a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/[^\s:/@]{1,128}):[^\s@/]{1,256}@/g,
    replace: (_m, prefix) => `${prefix}:${marker('password')}@`,
  },
  {
    kind: 'credential-assignment',
    hint: /pass|pwd|secret|token|key|credential/i,
    // key=value, key: value, "key": "value"; the key name is kept.
    pattern: new RegExp(
      `(\\b[A-Za-z0-9_.-]{0,40}${SENSITIVE_KEY}["']?\\s{0,3}(?:=|:|=>)\\s{0,3}["']?)([^\\s"',;&}]{1,512})`,
      'gi',
    ),
    replace: (m, key, value) => (isPlaceholder(value) ? m : `${key}${marker('secret')}`),
  },
];

/** Values that tell the reader what is expected rather than being a secret. */
function isPlaceholder(value: string): boolean {
  return (
    /^(?:\$\{[^}]*\}?|\{\{.*|<[^>]*>?|\*+|\$\(.*|\[REDACTED:[a-z-]+\]|null|none|true|false|undefined|expired|invalid|missing|required)$/i.test(
      value,
    ) || value.length < 3
  );
}

export function redact(text: string): string {
  let out = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  for (const rule of RULES) {
    if (!rule.hint.test(out)) continue;
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: any[]) => string);
  }
  // Past the scan cap nothing is shown: unscanned text could hold anything.
  return text.length > MAX_SCAN ? `${out}…` : out;
}

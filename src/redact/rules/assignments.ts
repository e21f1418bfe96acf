/**
 * Family 3: a credential-sounding key followed by a value, in every syntax that logs and
 * configuration use. The key name stays; the value becomes a marker typed by the key
 * (`password`, `token`, `api-key`, `secret`). Where the value has no shape to go by
 * (`hunter2`), the key name is the only evidence, so the key decides; the checks on the
 * value only keep placeholders, states, code references, paths and URLs readable.
 */
import { allOf, keywords, type Context } from '../conditions.js';
import { classifyKey, isNotSecretKeyWord, type KeyVerdict } from '../key-names.js';
import { marker } from '../marker.js';
import { isPlaceholder } from '../placeholders.js';
import type { Match, Rule } from '../rule.js';
import { applyRule, g } from '../rule.js';
import { entropy, isHex, isLowDiversity, isUuid, looksLikePath, looksRandom } from '../value-shape.js';
import { isBasicCredential } from '../validators.js';
import { lineAround } from './structure.js';

/** Words a sensitive key name contains; the regex finds candidates, `classifyKey` decides. */
const SENSITIVE =
  'pass|pwd|pw|secret|token|key|credential|creds|auth|sig|signature|bearer|pat|jwt|dsn|session|sid|connection_?string|connstr|mnemonic|cvv|cvc|csc';

/** The literals SENSITIVE needs (lowercase): a rule here runs only where one occurs in the right surroundings. */
export const ASSIGNMENT_KEYWORDS = ['pw', 'pass', 'secret', 'token', 'key', 'cred', 'auth', 'sig', 'bearer', 'pat', 'jwt', 'dsn', 'session', 'sid', 'conn', 'mnemonic', 'cvv', 'cvc', 'csc'];
const sensitive = (kind: Context['kind']): ReturnType<typeof keywords> => keywords(ASSIGNMENT_KEYWORDS, { kind } as Context);

/** Roots of code expressions: `password = os.environ[...]`, `token: process.env.TOKEN`. */
const CODE_ROOT =
  /^(?:process|os|env|environ|config|conf|cfg|settings|self|this|req|request|res|args|argv|opts|options|params|props|ctx|context|data|body|form|payload|secrets|credentials|vault|app|window|document|input|values|state|user|auth|session|System|Environment|ENV|Rails|Django|flask|current_app|import|require|getenv|System\.getenv|std|fmt|viper|cfg|c|s|r|e|u|o|p|t|k|v|kwargs|attrs|record|row|item|obj|node|cred|creds|account|client|token|secret|password|key|api|cli|cmd|flags|parser|opt|field|model|entity|dto|schema|Secret|Config)(?:\.|\[|\(|::|->)/;
/** Type names after a `:` in code (`password: string`, `token: Optional[str]`). */
const TYPE_NAME = /^(?:string|str|String|number|int|i32|i64|u32|u64|bool|boolean|Boolean|bytes|Bytes|\[\]byte|any|unknown|object|Buffer|SecretStr|SecretString|Secret|Option|Optional|Maybe|Uint8Array|char|Password|Token|Credentials?)\b/;

export interface ValueContext {
  verdict: KeyVerdict;
  value: string;
  separator: string;
  /** The text right after the value, for the prose and code checks. */
  after: string;
  quoted: boolean;
}

/** Words of code that start an expression, never a credential (`credentials: new AWS...`). */
const CODE_WORDS = new Set(['new', 'await', 'try', 'catch', 'throw', 'function', 'lambda', 'require', 'import', 'async', 'yield', 'typeof', 'this', 'self', 'static', 'const', 'let', 'var', 'def', 'fn', 'func', 'return', 'match', 'if', 'not', 'and', 'or', 'in', 'is']);

/**
 * An identifier that names a credential (`authMiddleware`, `new_password`, `dbToken`): a
 * variable or function in code, not its value. Human passwords of that shape carry digits
 * (`MyPassword123`) and are kept as secrets.
 */
const isCredentialIdentifier = (v: string): boolean =>
  /^[A-Za-z_$][A-Za-z_$]*$/.test(v) && /_|[a-z][A-Z]/.test(v) && /pass|pwd|token|secret|key|cred|auth|session/i.test(v);

/** Base64 that decodes to printable text (`b3JkZXItNDQxMg==` is `order-4412`): an encoded name, not a key. */
function decodesToText(value: string): boolean {
  if (!/^[A-Za-z0-9+/_\-]{8,}={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length < 6) return false;
  for (const b of bytes) if (b < 0x20 || b > 0x7e) return false;
  return true;
}

/** Whether the value in a credential-looking assignment is a secret to remove. */
const MIN_TOKEN_CHARS = 8;

export function isSecretValue({ verdict, value, separator, after, quoted }: ValueContext): boolean {
  const v = value.trim();
  if (isPlaceholder(v)) return false;
  if (verdict.numeric) return /^\d{3,4}$/.test(v);
  if (/^\d{1,3}$/.test(v) || /^\d+(?::\d+)+$/.test(v)) return false;
  if (looksLikePath(v)) return false;
  // A URL without user info is an endpoint; URL rules deal with user info and tokens in it.
  if (/^[a-z][a-z0-9+.\-]{1,20}:\/\/[^@\s]*$/i.test(v) && !/[?&](?:sig|token|key|secret|password)=/i.test(v)) return false;
  // A union of literals: `type RequestCredentials = "include" | "omit"`.
  if (/^\s*\|\s*["'`]/.test(after)) return false;
  // A version or version range (`"minipass": "^7.1.2"`, `~1.2`, `>=2.0.0-rc.1`, `1.x`).
  if (/^(?:[\^~]|[<>]=?|=)?v?\d+(?:\.(?:\d+|x|\*)){1,3}(?:-[\w.]+)?$/.test(v)) return false;
  // An enum word (`countToken: "COUNT"`, `grant: 'REFRESH_TOKEN'`): capitals only, no digits. Not for
  // passwords, which may be any word.
  if (verdict.kind !== 'password' && /^[A-Z]{2,}(?:_[A-Z0-9]+)*$/.test(v) && v.length <= 40) return false;
  // An artifact coordinate (`jjwt-jackson-0.11.2`, `left-pad@1.3.0`).
  if (/^[a-z][\w.\-]*[\-@:]v?\d+\.\d+(?:\.\d+)?(?:[\-+][\w.]+)?$/.test(v)) return false;
  if (!quoted) {
    if (CODE_WORDS.has(v) || CODE_ROOT.test(v) || isCredentialIdentifier(v)) return false;
    // An index or a call: `token = tokens[i + 1]`, `key = keys(obj)`.
    if (/^[A-Za-z_$][\w$.]*[\[(]/.test(v)) return false;
    // An identifier in an expression: `clientSecret = isPublic ? undefined : x`, `Token = Item | Char`.
    if (/^[A-Za-z_$][\w$.]*$/.test(v) && /^(?:\s*(?:\?\??|&&|\|\||[+*\/%]|[=!]==?|[<>]=?|\.)|\s+[&|]\s)/.test(after)) return false;
    // An expression: `n.token=n.password||null`, `a=b??c`, `x===y`.
    if (/\|\||&&|\?\?|[=!]==/.test(v)) return false;
    // A chained assignment in code: `j.Minipass=j.isWritable=j.isReadable=void 0`.
    if (/^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$.]*=[A-Za-z_$!]/.test(v)) return false;
    // A member of an object or namespace (`token: z.ZodString`, `key: NodeJS.ArrayBufferView`,
    // `secret = opts.clientSecret`): a capital inside or a one- or two-letter object, which
    // `football.princess4` has not.
    if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) && (/^[A-Za-z_$]{1,2}\.|[a-z][A-Z]|\.[A-Z]/.test(v))) return false;
    // A type (`secretKey: KeyObject;`, `password: BinaryLike,`): a capitalised name without
    // digits, followed by what follows a type. A password `Dragon` ends its line.
    const typeEnd = verdict.kind === 'password' ? /^\s*[;,|&<>\[\])=]/ : /^\s*(?:$|[;,|&<>\[\])=]|\/\/)/;
    if (separator.includes(':') && /^[A-Z][a-z]\w*$/.test(v) && !/\d/.test(v) && typeEnd.test(after)) return false;
    // An object printed by its class: `AppWindowToken{9f4ef63 ...}`, `android.os.BinderProxy@2bd79ce`.
    if (/^[A-Z][A-Za-z0-9_$]*[{(\[]/.test(v) || /^[A-Za-z_$][\w$.]*@[0-9a-f]{4,16}$/.test(v)) return false;
    // A call: `token = fetchToken()`, `secret = get_secret(name)`.
    if (/^[A-Za-z_$][\w$.]*\s*\(/.test(`${v}${after.slice(0, 1)}`)) return false;
    if (separator.includes(':') && TYPE_NAME.test(v)) return false;
    // `auth: provider=oidc`: the key is a label in front of other fields.
    if (separator.includes(':') && /^[A-Za-z_][\w.\-]*=/.test(v)) return false;
    // `Password: must be at least 8 characters` is a sentence about the password.
    if (/:\s/.test(separator) && /^[A-Za-z]+$/.test(v) && /^[ \t]+[a-z]/.test(after)) return false;
    if (/\s=\s/.test(separator)) {
      // A lone identifier or a member path on the right of ` = ` is code (`token = tok`, `k = Ed25519.Keys`).
      if (/^[a-z_$][\w$]*$/i.test(v) && /pass|pwd|token|secret|key|cred|auth/i.test(v) && /^\s*(?:$|[;)\],]|\/\/|#)/.test(after)) return false;
      if (/^[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)+$/.test(v) && /[a-z]{3}/.test(v)) return false;
    }
  }
  // Generated tokens, keys and secrets are long: a short value after one of those names is
  // an id, a flag or test data (`token: 'a=b=c'`). Passwords may be short.
  if (verdict.kind !== 'password' && !verdict.numeric && v.length < MIN_TOKEN_CHARS) return false;
  if (verdict.strong) return true;
  // Weak names (`key`, `auth`, `signature`, `session`, `<vendor>Key`) need a value that
  // looks generated: token characters only, not an encoded name or `name-<digest>` cache
  // key. `user:password` in base64 (Docker's `"auth"`) is a credential whatever the name.
  if (isBasicCredential(v)) return true;
  if (!/^[A-Za-z0-9+/=_\-.~%]+$/.test(v) || /^0x[0-9a-f]+$/i.test(v) || decodesToText(v)) return false;
  // A UUID or a long hex string is a key after a qualified name (`geocodio_key`), an id
  // or a digest after a bare `key` (`cache hit for key=49268cf3...`).
  if (isUuid(v) || isHex(v)) return verdict.qualified === true && v.length >= 32;
  const withoutDigests = v.replace(/[\-_.:]?[0-9a-fA-F]{16,}/g, '');
  if (withoutDigests.length !== v.length && !looksRandom(withoutDigests, 12)) return false;
  return looksRandom(v, 16) || looksGenerated(v);
}

/**
 * Generated but not random enough for looksRandom: lower-case letters and digits
 * (`m954y5b4lxy9ntmq38rq33v2znhwqbzz`), which read as words to the class-change test.
 */
function looksGenerated(v: string): boolean {
  if (v.length < 20 || !/[0-9]/.test(v) || !/[A-Za-z]/.test(v) || isLowDiversity(v) || entropy(v) < 3.8) return false;
  // Letters and digits interleaved throughout, not a name with a number (`order_2024_report`).
  const switches = v.match(/[A-Za-z][0-9]|[0-9][A-Za-z]/g)?.length ?? 0;
  return switches >= Math.max(4, v.length / 8);
}

const markerFor = (verdict: KeyVerdict): string => marker(verdict.kind);

/**
 * `key=value`, `key: value`, `"key": "value"`, `'key' => 'value'`, `key := value`,
 * `KEY="value"`, `--key=value`, `{\"key\":\"value\"}` (JSON inside a JSON string).
 */
const keyValue: Rule = {
  name: 'credential-assignment',
  when: [sensitive('assign')],
  pattern: new RegExp(
    String.raw`(?<![\w.\-])([\w.\-]{0,40}?(?:${SENSITIVE})[\w.\-]{0,40})` + // 1 key
      String.raw`(\\?["']?\]?[ \t]{0,4}(?:=>|:=|=(?![=~>])|:(?![:/]|\\(?!")))[ \t]{0,4})` + // 2 separator (with the key's closing quote and bracket)
      String.raw`(?:(\\")([^"\\\r\n]{0,4096})\\"|(")([^"\r\n]{0,4096})"|(')([^'\r\n]{0,4096})'|(\`)([^\`\r\n]{0,4096})\`|["']?([^\s"'\`,;&)}\]<>(\[{][^\s"'\`,;&)}\]<>]{0,4095}))`,
    'gi',
  ),
  replace: (m: Match) => {
    const key = g(m, 0);
    const separator = g(m, 1);
    const before = m.input.slice(Math.max(0, m.offset - 40), m.offset);
    // A path component (`src/auth/password.ts:12`) or part of a colon-separated name (an ARN).
    if (/[/\\]$/.test(before) || (/:$/.test(before) && /^\\?["']?\]?[ \t]*:/.test(separator))) return m.text;
    const quote = m.groups[2] ?? m.groups[4] ?? m.groups[6] ?? m.groups[8];
    const value = m.groups[3] ?? m.groups[5] ?? m.groups[7] ?? m.groups[9] ?? m.groups[10] ?? '';
    const head = m.text.slice(0, m.text.length - value.length - (quote?.length ?? 0));
    // Not a secret itself, the value may hold assignments (`dsn="host=db password=x"`,
    // `ConnectionString="...;AccountKey=..."`): look inside it.
    const inner = (): string => (/[=:]/.test(value) && nesting < MAX_NESTING ? `${head}${redactAssignments(value)}${quote ?? ''}` : m.text);
    const verdict = classifyKey(key.replace(/^-+/, ''));
    if (verdict === undefined) return inner();
    // A bare `key` named by the word before it: `cache key: ...`, `partition key=...`.
    if (!verdict.strong && /^key$/i.test(key) && isNotSecretKeyWord(/([A-Za-z]+)[ \t]+$/.exec(before)?.[1] ?? '')) return inner();
    const after = m.input.slice(m.offset + m.text.length, m.offset + m.text.length + 40);
    if (!isSecretValue({ verdict, value, separator, after, quoted: quote !== undefined })) return inner();
    return `${head}${markerFor(verdict)}${quote ?? ''}`;
  },
};

/**
 * How deep values are searched for assignments inside assignments. Bounded: `key=` a
 * thousand times over is one value inside another a thousand deep, which would overflow
 * the stack (and take quadratic time) if followed.
 */
const MAX_NESTING = 2;
let nesting = 0;

/** The key-value rule applied to a value (a fresh regex: the outer one is mid-replace). */
function redactAssignments(text: string): string {
  const rule = { ...keyValue, pattern: new RegExp(keyValue.pattern.source, keyValue.pattern.flags) };
  nesting++;
  try {
    return applyRule(rule, text);
  } finally {
    nesting--;
  }
}

/** `--password hunter2`, `-storepass changeit`, `--api-key "abc"`: flags with the value after a space. */
const flagValue: Rule = {
  name: 'credential-flag',
  when: [sensitive('flag')],
  pattern: new RegExp(
    String.raw`(?<![\w\-])(--?(?=[A-Za-z])[\w\-]{0,40}?(?:${SENSITIVE})[\w\-]{0,40})([ \t]{1,4})(?:(["'])([^"'\r\n]{1,4096})\3|([^\s"'\-][^\s"']{0,4095}))`,
    'gi',
  ),
  replace: (m: Match) => {
    const [flag = '', gap = '', quote, quotedValue, bareValue] = m.groups;
    const verdict = classifyKey(flag.replace(/^-+/, ''));
    const value = quotedValue ?? bareValue ?? '';
    if (verdict === undefined || /-(?:stdin|file|env|prompt|from)$/i.test(flag)) return m.text;
    if (!isSecretValue({ verdict, value, separator: gap, after: '', quoted: quote !== undefined })) return m.text;
    return `${flag}${gap}${quote ?? ''}${markerFor(verdict)}${quote ?? ''}`;
  },
};

/** `mysql -uroot -pSECRET`, `-p'SECRET'`: the password glued to `-p` in the MySQL family of clients. */
const mysqlPassword: Rule = {
  name: 'mysql-password',
  when: [allOf({ words: ['mysql', 'mariadb'] }, { words: ['-p'] })],
  pattern: /(?<![\w\-])(-p)(["']?)([^\s"'\-][^\s"']{0,255})\2/g,
  // `-p` means other things elsewhere (`mkdir -p`, `-p 8080`): a MySQL client must be named on the line.
  replace: (m: Match) => (isPlaceholder(g(m, 2)) || !/mysql|mariadb/i.test(lineAround(m)) ? m.text : `-p${g(m, 1)}${marker('password')}${g(m, 1)}`),
};

/** `sshpass -p x`, `docker login -u user -p x`, `oc login -u u -p x`: `-p` after a user or in a login command. */
const loginPassword: Rule = {
  name: 'login-password',
  when: [allOf({ words: ['-p'] }, { words: ['sshpass', 'login', '-u'] })],
  pattern: /(?<![\w\-])(-p[ \t]{1,4})(["']?)([^\s"'\-][^\s"']{0,255})\2/g,
  replace: (m: Match) => {
    const value = g(m, 2);
    const line = lineAround(m);
    const login = /\bsshpass\b|\blogin\b|(?:^|\s)-u[ \t]?\S/.test(line);
    // `-p 8080` (ports), `-p tcp` and `-p ~/.ssh` are not passwords.
    if (!login || /^\d+(?::\d+)*$/.test(value) || isPlaceholder(value) || looksLikePath(value)) return m.text;
    return `${g(m, 0)}${g(m, 1)}${marker('password')}${g(m, 1)}`;
  },
};

/**
 * `aws configure set aws_secret_access_key <value>`, `heroku config:set API_TOKEN <value>`:
 * an identifier-shaped credential name, a space, and a value that looks generated. Prose
 * ("the token expired") has no identifier-shaped name and no generated value.
 */
const spacedAssignment: Rule = {
  name: 'spaced-assignment',
  when: [sensitive('spaced')],
  pattern: new RegExp(
    String.raw`(?<![\w.\-])([A-Za-z][\w.\-]{0,40}?(?:${SENSITIVE})[\w.\-]{0,40})([ \t]{1,4})(["']?)([A-Za-z0-9+/_.~\-]{16,4096}={0,2})\3(?![\w+/=\-])`,
    'gi',
  ),
  replace: (m: Match) => {
    const [key = '', gap = '', quote = '', value = ''] = m.groups;
    if (!/[_\-.]|[a-z][A-Z]/.test(key)) return m.text;
    const verdict = classifyKey(key);
    if (verdict === undefined || !verdict.strong || !looksRandom(value, 16) || isUuid(value)) return m.text;
    return `${key}${gap}${quote}${markerFor(verdict)}${quote}`;
  },
};

/** `ldapsearch -w secret` / `ldapmodify -w secret`: the bind password flag of the OpenLDAP tools. */
const ldapBindPassword: Rule = {
  name: 'ldap-password',
  when: [allOf({ words: ['ldap'] }, { words: ['-w'] })],
  pattern: /(?<![\w\-])(-w[ \t]{1,4})(["']?)([^\s"'][^\s"']{0,511})\2/g,
  replace: (m: Match) => (/\bldap[a-z]*\b/.test(lineAround(m)) && !isPlaceholder(g(m, 2)) ? `${g(m, 0)}${g(m, 1)}${marker('password')}${g(m, 1)}` : m.text),
};

/** `.netrc`: `machine host login user password secret`. */
const netrc: Rule = {
  name: 'netrc',
  when: [allOf({ words: ['password', 'passwd'] }, { words: ['machine', 'login', 'default'] })],
  pattern: /\b((?:machine|login|default)[ \t]+\S{1,256}[ \t]+(?:\S{1,256}[ \t]+){0,4}?(?:password|passwd)[ \t]+)(\S{1,512})/g,
  replace: (m: Match) => (isPlaceholder(g(m, 1)) ? m.text : `${g(m, 0)}${marker('password')}`),
};

/** SQL and shells: `IDENTIFIED BY 'x'`, `WITH PASSWORD 'x'`, `PASSWORD "x"`. */
const quotedPassword: Rule = {
  name: 'sql-password',
  when: [keywords(['password', 'passwd'], { kind: 'quote' }), keywords(['identified'])],
  pattern: /\b((?:identified[ \t]+by|password|passwd)[ \t]{1,4})(["'])([^"'\r\n]{1,512})\2/gi,
  replace: (m: Match) => (isPlaceholder(g(m, 2)) ? m.text : `${g(m, 0)}${g(m, 1)}${marker('password')}${g(m, 1)}`),
};

/**
 * A configuration line that is only `key value` (`requirepass foobared`, Dockerfile
 * `ENV DB_PASSWORD secret`, `.pgpass`-like listings).
 */
const spaceSeparatedLine: Rule = {
  name: 'config-line',
  when: [sensitive('line')],
  pattern: new RegExp(
    String.raw`(^|\n)([ \t]*(?:ENV[ \t]+|export[ \t]+|set[ \t]+)?)([\w.\-]{0,40}?(?:${SENSITIVE})[\w.\-]{0,40})([ \t]{1,8})([^\s"'=:][^\s]{0,511})[ \t]*(?=\r?\n|$)`,
    'gi',
  ),
  replace: (m: Match) => {
    const [start = '', lead = '', key = '', gap = '', value = ''] = m.groups;
    const verdict = classifyKey(key);
    if (verdict === undefined || !verdict.strong) return m.text;
    // Two words such as `token expired` or `password changed` are a message, not a setting
    // (the state words are placeholders); a key in capitals or with a digit in the value is a setting.
    if (!isSecretValue({ verdict, value, separator: gap, after: '', quoted: false })) return m.text;
    return `${start}${lead}${key}${gap}${markerFor(verdict)}`;
  },
};

/**
 * Redis's `requirepass x` and `masterauth x`: directives that name a password wherever they
 * stand, a config line or a log line that quotes one.
 */
const redisDirective: Rule = {
  name: 'redis-directive',
  when: [keywords(['requirepass', 'masterauth'])],
  pattern: /\b((?:requirepass|masterauth)[ \t]+)(["']?)([^\s"']{1,512})\2/gi,
  replace: (m: Match) => {
    const [head = '', quote = '', value = ''] = m.groups;
    if (isPlaceholder(value)) return m.text;
    return `${head}${quote}${marker('password')}${quote}`;
  },
};

/** `<password>x</password>`, `<db.password>`, `<ns:ApiKey>`. */
const xmlElement: Rule = {
  name: 'xml-element',
  when: [sensitive('xml')],
  pattern: /<((?:[\w\-]{1,30}:)?[\w.\-]{1,64})(?:[ \t][^<>]{0,256})?>([^<\r\n]{1,512})<\/\1>/g,
  replace: (m: Match) => {
    const [tag = '', value = ''] = m.groups;
    const verdict = classifyKey(tag.replace(/^[\w\-]+:/, ''));
    if (verdict === undefined || !isSecretValue({ verdict, value, separator: '>', after: '', quoted: true })) return m.text;
    return m.text.replace(`>${value}<`, `>${markerFor(verdict)}<`);
  },
};

/**
 * A name and its value as two fields: `<add key="DbPassword" value="x"/>`,
 * `<property name="password" value="x"/>`, `{"name": "DB_PASSWORD", "value": "x"}`,
 * `- name: API_TOKEN\n  value: x` (Kubernetes env).
 */
const nameThenValue: Rule = {
  name: 'name-value-pair',
  when: [allOf({ words: ASSIGNMENT_KEYWORDS, context: { kind: 'named' } }, { words: ['value'] })],
  pattern:
    /((?<![\w])(?:key|name)["']?[ \t]*[=:][ \t]*["']?([\w.\-]{1,64})["']?(?:[ \t]*,)?[ \t]*(?:\r?\n[ \t]*-?[ \t]*)?["']?value["']?[ \t]*[=:][ \t]*)(?:(["'])([^"'\r\n]{0,512})\3|([^\s"',}]{1,512}))/gi,
  replace: (m: Match) => {
    const [head = '', name = '', quote, quotedValue, bareValue] = m.groups;
    const verdict = classifyKey(name);
    const value = quotedValue ?? bareValue ?? '';
    if (verdict === undefined || !isSecretValue({ verdict, value, separator: '=', after: '', quoted: quote !== undefined })) return m.text;
    return `${head}${quote ?? ''}${markerFor(verdict)}${quote ?? ''}`;
  },
};

export const assignmentRules: readonly Rule[] = [
  xmlElement,
  nameThenValue,
  netrc,
  quotedPassword,
  mysqlPassword,
  loginPassword,
  ldapBindPassword,
  flagValue,
  keyValue,
  spacedAssignment,
  spaceSeparatedLine,
  redisDirective,
];

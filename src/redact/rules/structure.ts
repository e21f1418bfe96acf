/**
 * Family 4: secrets recognisable by the structure around them. Each rule keeps the
 * structure (PEM BEGIN/END lines, the URL user, the `Bearer` scheme word) and replaces
 * only the secret part.
 */
import { allOf, keywords, shape } from '../conditions.js';
import { ESCAPED_NEWLINE, ESCAPED_RETURN } from '../escapes.js';
import { marker } from '../marker.js';
import { isPlaceholder } from '../placeholders.js';
import type { Match, Rule } from '../rule.js';
import { g } from '../rule.js';
import { isHex, isUuid, looksRandom, wordCoverage } from '../value-shape.js';
import { isBasicCredential } from '../validators.js';

/** `-----BEGIN RSA PRIVATE KEY-----`, `-----BEGIN OPENSSH PRIVATE KEY-----`, `-----BEGIN PGP PRIVATE KEY BLOCK-----`. */
export const PEM_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/;
export const PEM_END = /-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/;

/** Base64, escaped newlines and real newlines with indentation: what a key body is made of. */
const KEY_MATERIAL = new RegExp(`^(?:${ESCAPED_NEWLINE}|${ESCAPED_RETURN}|[A-Za-z0-9+/=]|\\r?\\n[ \\t]*)*`);
/** The separator before the END line: an escaped or real newline, or a space. */
const CLOSING_SEPARATOR = new RegExp(`(?:${ESCAPED_RETURN})?(?:${ESCAPED_NEWLINE}|\\r?\\n| )$`);

/**
 * A private key block inside one string, its lines separated by real newlines, `\n`
 * escapes (JSON) or spaces (a key pasted into one line). The body goes; the BEGIN and END
 * lines stay so the reader knows a key of that type was there. A block without an END
 * (truncated output) loses everything after BEGIN that looks like key material.
 */
const privateKeyBlock: Rule = {
  name: 'private-key',
  when: [keywords(['private key'])],
  // A tempered body (no `-----END` inside) keeps the scan linear and bounded.
  pattern: new RegExp(
    `(${PEM_BEGIN.source})((?:${ESCAPED_RETURN})?(?:${ESCAPED_NEWLINE}|\\r?\\n| )?)((?:(?!-----END)[\\s\\S]){0,40000})(${PEM_END.source})?`,
    'g',
  ),
  replace: (m: Match) => {
    const [begin = '', separator = '', body = '', end] = m.groups;
    if (end === undefined) {
      // No END (truncated output): drop what can be key material, keep what follows.
      const material = KEY_MATERIAL.exec(body)?.[0] ?? '';
      if (material.trim().length === 0) return m.text;
      return `${begin}${separator}${marker('private-key')}${body.slice(material.length)}`;
    }
    const closing = CLOSING_SEPARATOR.exec(body)?.[0] ?? '';
    return `${begin}${separator}${marker('private-key')}${closing}${end}`;
  },
};

/**
 * One line of a private key's body on its own: what the log condenser sees, since it
 * redacts each line alone (no state crosses lines there). A line that is nothing but
 * base64 of a PEM body's length (64 characters, 70 for OpenSSH, up to 76) or the shorter
 * last line, with the mix of cases and digits random bytes give, in code is a rare thing;
 * in a log it is key material, a certificate or a dump, and showing none of it costs little.
 */
const privateKeyLine: Rule = {
  name: 'private-key-line',
  when: [shape('key-material-line')],
  pattern: /^([ \t]*["']?)([A-Za-z0-9+/]{8,76}={0,2})(["']?,?[ \t]*\r?)$/g,
  replace: (m: Match) => (isKeyMaterial(g(m, 1)) ? `${g(m, 0)}${marker('key-material')}${g(m, 2)}` : m.text),
};

/**
 * A full-length line of a key body behind a log prefix (`[app] MIIEvQIBADANBg...`): a
 * run of exactly 64 (PEM) or 70 (OpenSSH) base64 characters between blanks or quotes. The
 * shorter last line of a body is caught only when it stands alone.
 */
const privateKeyLineInText: Rule = {
  name: 'private-key-line',
  when: [shape('base64-40')],
  pattern: /(?<=^|[\s"'])(?:[A-Za-z0-9+/]{64}|[A-Za-z0-9+/]{70})(?=$|[\s"',])/g,
  replace: (m: Match) => (isKeyMaterial(m.text) ? marker('key-material') : m.text),
};

/**
 * Base64 that looks like random bytes: both cases, and `+`, `/` or padding (which no
 * identifier has), or digits over a PEM line's length, or digits in a short line that is
 * not made of words (`Uint8Array`, `HTTP2ServerRequest` stay).
 */
export function isKeyMaterial(line: string): boolean {
  if (!/[A-Z]/.test(line) || !/[a-z]/.test(line) || isHex(line)) return false;
  if (/[+/]|=$/.test(line)) return true;
  if (!/[0-9]/.test(line)) return false;
  return line.length >= 40 || wordCoverage(line) <= 0.5;
}

/** JWTs (and JWS/JWE): `eyJ` header, `eyJ` payload, signature (empty for `alg: none`). */
const jwt: Rule = {
  name: 'jwt',
  when: [keywords(['eyj'], { kind: 'tail', min: 5 })],
  pattern: /(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{5,4096}\.eyJ[A-Za-z0-9_\-]{5,8192}\.[A-Za-z0-9_\-]{0,4096}(?:\.[A-Za-z0-9_\-]{0,4096}\.[A-Za-z0-9_\-]{0,4096})?/g,
  replace: () => marker('jwt'),
};

/**
 * `scheme://user:password@host` in any scheme (postgres, mongodb+srv, redis, amqp, https,
 * ftp ...). The user stays unless it is itself a token (`https://<token>:x-oauth-basic@`).
 * The password may contain an unescaped `@` or `#`: the last `@` before the host ends it.
 */
const urlPassword: Rule = {
  name: 'url-password',
  when: [keywords(['://'], { kind: 'url-at' })],
  pattern: /(?<![A-Za-z0-9+.\-])([A-Za-z][A-Za-z0-9+.\-]{0,30}:\/\/)([^\s:/?#@"'<>\[\]]{0,256}):([^\s/?"'<>]{1,256})@(?=[A-Za-z0-9\[._\-])/g,
  replace: (m: Match) => {
    const [scheme = '', user = '', password = ''] = m.groups;
    const userIsToken = looksRandom(user, 16) || (isHex(user) && user.length >= 32);
    const shownUser = userIsToken ? marker('token') : user;
    if (isPlaceholder(password) && !userIsToken) return m.text;
    const shownPassword = isPlaceholder(password) ? password : marker('password');
    return `${scheme}${shownUser}:${shownPassword}@`;
  },
};

/** `https://<token>@host`: a user part that is a generated token (Sentry DSNs, git remotes with a PAT). */
const urlToken: Rule = {
  name: 'url-token',
  when: [keywords(['://'], { kind: 'url-at' })],
  pattern: /(?<![A-Za-z0-9+.\-])([A-Za-z][A-Za-z0-9+.\-]{0,30}:\/\/)([A-Za-z0-9._~%+\-]{16,256})@(?=[A-Za-z0-9\[._\-])/g,
  replace: (m: Match) => {
    const token = g(m, 1);
    if (isUuid(token) || !(looksRandom(token, 16) || (isHex(token) && token.length >= 32))) return m.text;
    return `${g(m, 0)}${marker('token')}@`;
  },
};

/** Schemes whose credential is a list of parameters, redacted to the end of the value. */
const PARAMETER_SCHEMES = /^(?:digest|aws4-hmac-sha256|oauth|signature|hoba|mutual|ntlm|negotiate)$/i;

/**
 * `Authorization:` and `Proxy-Authorization:` values in headers, JSON, Python dicts and
 * `-H` flags. The scheme word stays (`Bearer [REDACTED:authorization]`).
 */
const authorizationHeader: Rule = {
  name: 'authorization',
  when: [keywords(['authorization'], { kind: 'assign' })],
  pattern:
    /(?<![\w\-])((?:proxy-)?authorization)(\\?["']?[ \t]{0,4}[:=][ \t]{0,4}\\?["'`]?)(?:(bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256|oauth|hmac|hmac-sha256|apikey|api-key|sso-key|key|signature|splunk|gitlab-ci-token|jwt|dpop|mac|hoba|mutual|vapid|sharedkey|sharedkeylite|ssws|otp|pat|session|hawk|klaviyo-api-key|genieKey|dsn|token-v1)([ \t]{1,4}))?([^\s"',;\\]{1,4096}(?:[^\r\n"\\]{0,4096})?)/gi,
  replace: (m: Match) => {
    const [name = '', separator = '', scheme, gap = '', rest = ''] = m.groups;
    if (scheme !== undefined && PARAMETER_SCHEMES.test(scheme)) {
      return `${name}${separator}${scheme}${gap}${marker('authorization')}`;
    }
    // Only the first token of the value is the credential; what follows is other text.
    const credential = /^[^\s"',;\\]+/.exec(rest)?.[0] ?? rest;
    const after = rest.slice(credential.length);
    if (isPlaceholder(credential)) return m.text;
    return `${name}${separator}${scheme ?? ''}${gap}${marker('authorization')}${after}`;
  },
};

/** `Bearer <token>` outside an Authorization header (logged request objects, error messages). */
const bearerToken: Rule = {
  name: 'bearer',
  when: [keywords(['bearer'], { kind: 'scheme', min: 12 })],
  pattern: /(?<![\w\-])(bearer[ \t]{1,4})([A-Za-z0-9._~+/\-]{12,4096}=*)/gi,
  replace: (m: Match) => {
    const token = g(m, 1);
    if (isPlaceholder(token) || !(/[0-9]/.test(token) || /[A-Z].*[a-z]|[a-z].*[A-Z]/.test(token)) || /^[a-z]+$/i.test(token)) return m.text;
    return `${g(m, 0)}${marker('authorization')}`;
  },
};

/** `Basic <base64 of user:password>` anywhere; the decoded text must hold a colon. */
const basicCredential: Rule = {
  name: 'basic',
  when: [keywords(['basic'], { kind: 'scheme', min: 6 })],
  pattern: /(?<![\w\-])(basic[ \t]{1,4})([A-Za-z0-9+/]{6,1024}={0,2})(?![A-Za-z0-9+/=])/gi,
  replace: (m: Match) => (isBasicCredential(g(m, 1)) ? `${g(m, 0)}${marker('authorization')}` : m.text),
};

/** `curl -u user:password`, `--user`, `--proxy-user`: the user stays. */
const curlUser: Rule = {
  name: 'curl-user',
  when: [allOf({ words: ['-u', '--user', '--proxy-user'] }, { words: ['curl', 'wget', 'http', 'ftp', 'xh'] })],
  pattern: /(?<![\w\-])((?:-u|--user|--proxy-user|-U)(?:[ \t]{1,4}|=)?(["']?)[^\s:"']{1,128}:)([^\s"']{1,512})\2/g,
  replace: (m: Match) => {
    const password = g(m, 2);
    const line = lineAround(m);
    const credential = m.text.replace(/^(?:-u|--user|--proxy-user|-U)(?:[ \t]{1,4}|=)?["']?/, '');
    // `docker run -u 1000:1000` and `--user root:root` are uid:gid, not credentials.
    if (/^\d+$/.test(password) || isPlaceholder(password) || isPlaceholder(credential)) return m.text;
    if (!/\b(?:curl|wget|http|https|httpie|xh|lftp|ftp)\b/.test(line)) return m.text;
    return `${g(m, 0)}${marker('password')}${g(m, 1)}`;
  },
};

/**
 * Session cookies in `Cookie:`/`Set-Cookie:` headers (any session-like name), and the
 * well-known session cookie names wherever they appear (`;jsessionid=` in URLs).
 */
const SESSION_COOKIE_NAME =
  /^(?:[\w.\-]*sess(?:ion)?[\w.\-]*|sid|[\w.\-]*[_.\-]sid|remember[\w.\-]*|[\w.\-]*auth[\w.\-]*|[\w.\-]*token[\w.\-]*|[\w.\-]*jwt[\w.\-]*|[\w.\-]*login[\w.\-]*|identity[\w.\-]*|[\w.\-]*secret[\w.\-]*|_?_?(?:host|secure)-[\w.\-]*|connect\.sid|[\w.\-]*_u(?:ser)?_?session)$/i;
const WELL_KNOWN_SESSION = /^(?:jsessionid|phpsessid|aspsessionid\w*|asp\.net_sessionid|connect\.sid|laravel_session|_gitlab_session|sessionid|session_token|session-token|next-auth\.session-token|__secure-next-auth\.session-token|ci_session|rack\.session|_session_id)$/i;

const sessionCookie: Rule = {
  name: 'cookie',
  when: [keywords(['sess', 'connect.sid'], { kind: 'assign' }), keywords(['cookie'])],
  pattern: /(?<![\w.\-])([A-Za-z_][\w.\-]{0,60})(=)([^;\s"',&]{1,4096})/g,
  replace: (m: Match) => {
    const [name = '', , value = ''] = m.groups;
    const sessionName = WELL_KNOWN_SESSION.test(name) || (SESSION_COOKIE_NAME.test(name) && /cookie/i.test(lineAround(m)));
    if (!sessionName || value.length < 8 || isPlaceholder(value)) return m.text;
    return `${name}=${marker('cookie')}`;
  },
};

/** `user/password@host` in Oracle connect strings (`sqlplus scott/tiger@db`, `jdbc:oracle:thin:`). */
const ORACLE_TOOLS = ['sqlplus', 'oracle', 'rman', 'expdp', 'impdp', 'sqlldr', 'dgmgrl'];
const oracleConnect: Rule = {
  name: 'oracle-connect',
  when: [allOf({ words: ORACLE_TOOLS }, { words: ['@'] })],
  // The password may hold an `@`: the last one before the host ends it.
  pattern: /(?<![\w/.\-])([A-Za-z_][\w$#]{0,30}\/)([^\s/"']{1,128})@(?=\/\/|[\w.\-]+)/g,
  // `scope/pkg@1.2.3` and `actions/checkout@v4` have the shape too: an Oracle tool must be named on the line.
  replace: (m: Match) =>
    isPlaceholder(g(m, 1)) || !new RegExp(ORACLE_TOOLS.join('|'), 'i').test(lineAround(m)) ? m.text : `${g(m, 0)}${marker('password')}@`,
};

/** How far around a match `lineAround` looks: a command or header name sits near its value. */
const CONTEXT = 512;

/**
 * The line the match sits on, within CONTEXT characters either side, for rules whose
 * verdict depends on the command or header. Bounded, so that many matches on one long
 * line do not each copy the whole line.
 */
export function lineAround(m: Match): string {
  const from = Math.max(0, m.offset - CONTEXT);
  const to = Math.min(m.input.length, m.offset + m.text.length + CONTEXT);
  const window = m.input.slice(from, to);
  const at = m.offset - from;
  const start = window.lastIndexOf('\n', at) + 1;
  const newline = window.indexOf('\n', at);
  return window.slice(start, newline === -1 ? window.length : newline);
}

export const structureRules: readonly Rule[] = [privateKeyBlock, privateKeyLine, privateKeyLineInText, jwt];
export const connectionRules: readonly Rule[] = [
  urlPassword,
  urlToken,
  authorizationHeader,
  bearerToken,
  basicCredential,
  curlUser,
  sessionCookie,
  oracleConnect,
];

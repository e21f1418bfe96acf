/**
 * Whether a key name (in `k=v`, `"k": v`, `--k v`, `<k>v</k>`, `name: K` ... `value: v`)
 * announces a credential, and which kind. The name is what catches human passwords such
 * as `hunter2`, which no shape or entropy test can tell from a word.
 */

export type SecretKeyKind = 'password' | 'token' | 'api-key' | 'secret' | 'private-key';

export interface KeyVerdict {
  kind: SecretKeyKind;
  /**
   * Strong: the name alone makes the value secret (`password`, `api_key`). Weak: the name
   * is ambiguous (`key`, `signature`, `auth`) and the value must look generated.
   */
  strong: boolean;
  /** The secret is a short number (`cvv: 123`), which other names' values never are. */
  numeric?: boolean;
  /** A word names what the key is for (`geocodio_key`, not a bare `key`): a UUID or hex value is then the key. */
  qualified?: boolean;
}

/** Split `DB_PASSWORD`, `dbPassword`, `x-api-key`, `AccountKey`, `db.password` into lowercase words. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Words that make a name about something else than the secret itself (`password_length`, `token_url`). */
const NOT_THE_VALUE = new Set([
  'id', 'ids', 'name', 'names', 'url', 'urls', 'uri', 'file', 'files', 'path', 'paths', 'dir',
  'type', 'types', 'length', 'len', 'size', 'count', 'counts', 'expiry', 'expires', 'expiration',
  'exp', 'ttl', 'timeout', 'lifetime', 'age', 'policy', 'policies', 'hint', 'field', 'fields',
  'format', 'version', 'algorithm', 'alg', 'enabled', 'required', 'min', 'max', 'reset', 'at',
  'time', 'date', 'endpoint', 'endpoints', 'header', 'headers', 'prefix', 'suffix', 'env', 'var',
  'location', 'ref', 'refs', 'source', 'mode', 'method', 'kind', 'label', 'status', 'state',
  'strength', 'rule', 'rules', 'regex', 'pattern', 'provider', 'issuer', 'audience', 'scope',
  'scopes', 'seconds', 'secs', 'sec', 'ms', 'millis', 'minutes', 'mins', 'hours', 'days', 'index',
  'hash', 'hashed', 'digest', 'fingerprint', 'usage', 'limit', 'limits', 'budget', 'stdin', 'cmd',
  'command', 'manager', 'store', 'backend', 'engine', 'class', 'handler', 'rate', 'ratio',
  'percent', 'changed', 'updated', 'created', 'rotated', 'last', 'mount', 'volume', 'arn', 'keyid',
  'selector', 'template', 'set', 'sets', 'list', 'lists', 'config', 'settings', 'option',
  'options', 'flag', 'flags', 'spec', 'meta', 'metadata', 'object', 'resource', 'namespace',
  'variable', 'error', 'errors', 'message', 'msg', 'text', 'placeholder', 'description', 'desc',
  'help', 'title', 'tooltip', 'visible', 'shown', 'hidden', 'valid', 'invalid', 'validation',
  'validator', 'check', 'checker', 'expired', 'revoked', 'missing', 'present', 'entropy', 'score',
  'level', 'used',
]);

/** Leading words that turn the name into a question or a setting (`is_secret`, `public_key`). */
const NOT_A_SECRET_PREFIX = new Set([
  'public', 'publishable', 'pub', 'is', 'has', 'no', 'num', 'max', 'min', 'show', 'allow',
  'require', 'requires', 'enable', 'disable', 'skip', 'use', 'should', 'can', 'with', 'include',
  'validate', 'hide', 'mask', 'forgot', 'next', 'page', 'pagination', 'continuation', 'cursor',
  'sync', 'cancellation', 'lexer', 'parser', 'prompt', 'completion', 'input', 'output', 'total',
  'cached', 'reasoning', 'automount', 'auto', 'generate', 'rotate', 'verify', 'check', 'get',
]);

/** Words before `key` that make a bare `key` a credential. */
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'secret', 'private', 'priv', 'encryption', 'encrypt', 'decryption', 'master',
  'signing', 'sign', 'client', 'account', 'shared', 'auth', 'license', 'licence', 'app',
  'application', 'service', 'admin', 'root', 'hmac', 'crypto', 'cipher', 'aes', 'jwt', 'session',
  'webhook', 'sas', 'storage', 'subscription', 'x', 'dd', 'consumer', 'server', 'ssh', 'gpg',
  'pgp', 'rsa', 'ecdsa', 'ed25519', 'tls', 'ssl', 'cert', 'mac', 'db', 'database', 'cookie',
  'ingest', 'write', 'deploy', 'management', 'mgmt', 'personal', 'function', 'symmetric',
  'wrapping', 'kek', 'dek',
]);

/** Keys whose values are ids, partitions, paths or cache entries, not credentials. */
const KEY_NOT_SECRET = new Set([
  'cache', 'idempotency', 'partition', 'sort', 'foreign', 'routing', 'object', 's3', 'bucket',
  'message', 'kafka', 'record', 'lookup', 'dedup', 'dedupe', 'shard', 'row', 'map', 'i18n',
  'translation', 'sequence', 'unique', 'composite', 'natural', 'surrogate', 'registry', 'group',
  'lock', 'queue', 'topic', 'event', 'trace', 'span', 'request', 'correlation', 'job', 'task',
  'metric', 'label', 'tag', 'attribute', 'column', 'table', 'dict', 'entry', 'item', 'node',
  'feature', 'experiment', 'variant', 'locale', 'lang', 'hash', 'redis', 'file', 'blob', 'asset',
  'image', 'video', 'upload', 'download', 'prefix', 'public', 'pub', 'react', 'list', 'element',
  'component', 'state',
]);

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'passcode', 'pw', 'pword', 'pswd', 'passwort', 'contrasena', 'senha', 'motdepasse']);
const TOKEN_WORDS = new Set(['token', 'bearer', 'pat', 'jwt']);
const SECRET_WORDS = new Set(['secret', 'credential', 'credentials', 'creds', 'cred', 'connectionstring', 'connstr', 'mnemonic', 'authorization']);
const WEAK_WORDS = new Set(['auth', 'sig', 'signature', 'dsn', 'session', 'sessionid', 'sid']);
const PUBLIC_WORDS = new Set(['public', 'publishable', 'pub']);
/** Compounds written as one word: `PGPASSWORD`, `storepass`, `apikey`, `accesstoken`, `_authToken`. */
const COMPOUND = /(?:password|passwd|passphrase|secret|apikey|accesskey|secretkey|privatekey|authtoken|accesstoken|refreshtoken|idtoken|credentials?|pass|pwd|token)$/;
const NOT_COMPOUND = new Set(['bypass', 'compass', 'surpass', 'overpass', 'underpass', 'encompass', 'trespass', 'jsonwebtoken', 'cancellationtoken', 'nexttoken', 'pagetoken', 'synctoken', 'continuationtoken']);
/** A file name such as `password-reset.test.ts` or `apikey_middleware.go` in a stack trace. */
const FILE_NAME = /\.(?:[cm]?[jt]sx?|go|py|rb|rs|java|kt|scala|swift|cs|php|c|h|cc|cpp|hpp|m|ex|exs|erl|clj|lua|pl|sh|vue|svelte|html?|css|scss|md|json|ya?ml|toml|xml|sql|proto|tf|txt|log)$/i;

export function classifyKey(rawKey: string): KeyVerdict | undefined {
  if (FILE_NAME.test(rawKey)) return undefined;
  // Test runners' status word (go test's `--- PASS: TestName`, automake's `PASS: name`).
  if (rawKey === 'PASS') return undefined;
  const words = keyWords(rawKey);
  if (words.length === 0) return undefined;
  const lastIndex = words.length - 1;
  if (NOT_THE_VALUE.has(words[lastIndex]!) || NOT_A_SECRET_PREFIX.has(words[0]!)) return undefined;
  if (words.some((w) => PUBLIC_WORDS.has(w))) return undefined;

  // A strong verdict beats a weak one (`auth_token`: `auth` is weak, `token` strong).
  let best: KeyVerdict | undefined;
  const consider = (kind: SecretKeyKind, strong: boolean, qualified = false): void => {
    if (best === undefined || (strong && !best.strong)) best = qualified ? { kind, strong, qualified } : { kind, strong };
  };
  for (let i = 0; i <= lastIndex; i++) {
    const word = words[i]!;
    const previous = i > 0 ? words[i - 1]! : '';
    if (PASSWORD_WORDS.has(word)) return { kind: 'password', strong: true };
    if (word === 'private' && words[i + 1] === 'key') return { kind: 'private-key', strong: true };
    if (/^(?:cvv2?|cvc2?|csc)$/.test(word)) return { kind: 'secret', strong: true, numeric: true };
    if (SECRET_WORDS.has(word)) consider('secret', true);
    else if (TOKEN_WORDS.has(word)) consider('token', true);
    else if (word === 'apikey' || (word === 'key' && previous === 'api')) consider('api-key', true);
    else if (word === 'key') {
      if (KEY_NOT_SECRET.has(previous)) return undefined;
      // `key` before other words describes them (`KeyMeshing`, `key_material_type`).
      if (i < lastIndex) continue;
      consider('secret', KEY_QUALIFIERS.has(previous) || (previous !== '' && isVendor(previous)), previous !== '');
    } else if (WEAK_WORDS.has(word)) {
      // `auth` names a method as often as a credential (`auth:SIMPLE`, `auth: oidc`): weak.
      consider(word === 'auth' || word === 'dsn' ? 'secret' : 'token', false);
    } else if (COMPOUND.test(word) && !NOT_COMPOUND.has(word)) {
      consider(/pass|pwd/.test(word) ? 'password' : /apikey/.test(word) ? 'api-key' : /token/.test(word) ? 'token' : 'secret', true);
    }
  }
  return best;
}

/** Vendors whose name before `key`/`token` marks a credential (`STRIPE_KEY`, `datadog_key`). */
const VENDORS = new Set([
  'aws', 'amazon', 'azure', 'gcp', 'google', 'github', 'gitlab', 'bitbucket', 'slack', 'discord',
  'telegram', 'stripe', 'twilio', 'sendgrid', 'mailgun', 'mailchimp', 'heroku', 'datadog', 'sentry',
  'openai', 'anthropic', 'cohere', 'mistral', 'groq', 'huggingface', 'hf', 'npm', 'pypi', 'docker',
  'dockerhub', 'digitalocean', 'do', 'linode', 'vultr', 'hetzner', 'cloudflare', 'fastly', 'vercel',
  'netlify', 'algolia', 'okta', 'auth0', 'pagerduty', 'newrelic', 'relic', 'circleci', 'travis',
  'atlassian', 'jira', 'confluence', 'alibaba', 'aliyun', 'tencent', 'snyk', 'sonar', 'segment',
  'mixpanel', 'amplitude', 'launchdarkly', 'rollbar', 'bugsnag', 'honeycomb', 'splunk', 'dynatrace',
  'dropbox', 'airtable', 'figma', 'zendesk', 'intercom', 'hubspot', 'salesforce', 'paypal',
  'braintree', 'plaid', 'coinbase', 'firebase', 'supabase', 'pusher', 'mapbox', 'contentful',
  'shopify', 'square', 'linear', 'notion', 'postman', 'grafana', 'doppler', 'vault', 'databricks',
  'pinecone', 'replicate', 'elastic', 'openrouter', 'gemini', 'claude', 'recaptcha', 'maps', 'sumo',
]);

export const isVendor = (word: string): boolean => VENDORS.has(word);

/** A word before a bare `key` that names a non-credential key (`cache key`, `partition key`). */
export const isNotSecretKeyWord = (word: string): boolean => KEY_NOT_SECRET.has(word.toLowerCase());

/** Words that make a number under the name a secret or personal datum (`pin: 4821`, `card_number`). */
const SECRET_NUMBER_WORDS = new Set(['passcode', 'pin', 'otp', 'totp', 'cvv', 'cvv2', 'cvc', 'csc', 'card', 'cc', 'pan', 'ssn', 'account', 'acct', 'iban', 'routing', 'sortcode']);

/**
 * Whether numbers under this key are not to be shown (json_shape examples, ranges): every
 * credential name `classifyKey` knows, and the names of PINs, one-time codes, card,
 * account and social security numbers. Not when the name says it is about something
 * else (`pin_length`, `card_count`, `account_id`).
 */
export function isSecretNumberKey(rawKey: string): boolean {
  if (classifyKey(rawKey) !== undefined) return true;
  const words = keyWords(rawKey);
  if (words.length === 0 || NOT_THE_VALUE.has(words[words.length - 1]!) || NOT_A_SECRET_PREFIX.has(words[0]!)) return false;
  return words.some((w) => SECRET_NUMBER_WORDS.has(w) || PASSWORD_WORDS.has(w) || COMPOUND.test(w));
}

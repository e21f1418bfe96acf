/**
 * Family 2 and 5: values with no prefix of their own, recognised by a vendor's name
 * nearby (Datadog and Heroku keys are plain hex and UUIDs) or, for AWS secret access
 * keys, by their exact shape. Both need the value to look generated, so that ids,
 * digests and words next to a vendor's name stay.
 */
import { keywords, shape } from '../conditions.js';
import { marker } from '../marker.js';
import { isPlaceholder } from '../placeholders.js';
import type { Match, Rule } from '../rule.js';
import { classChangeRatio, entropy, isHex, isLowDiversity, isUuid, looksLikePath, looksRandom } from '../value-shape.js';

const VENDORS = [
  'datadog', 'heroku', 'twilio', 'sentry', 'mailchimp', 'mailgun', 'cloudflare', 'algolia', 'okta',
  'pagerduty', 'newrelic', 'new_relic', 'new-relic', 'circleci', 'travis', 'bitbucket', 'atlassian',
  'jira', 'confluence', 'azure', 'alibaba', 'aliyun', 'tencent', 'snyk', 'sonar', 'netlify',
  'vercel', 'fastly', 'mixpanel', 'amplitude', 'launchdarkly', 'rollbar', 'bugsnag',
  'honeycomb', 'logdna', 'loggly', 'sumologic', 'splunk', 'dynatrace', 'dropbox', 'asana', 'trello',
  'airtable', 'zendesk', 'intercom', 'hubspot', 'salesforce', 'paypal', 'braintree', 'plaid',
  'coinbase', 'firebase', 'supabase', 'pusher', 'mapbox', 'contentful', 'cohere', 'mistral',
  'vault', 'linode', 'vultr', 'hetzner', 'scaleway', 'confluent',
  'auth0', 'clerk', 'stytch', 'postmark', 'sparkpost', 'mandrill', 'nexmo', 'vonage', 'plivo',
  'messagebird', 'opsgenie', 'statuspage', 'grafana', 'algolia', 'shodan', 'virustotal',
  'openweather', 'ipinfo', 'ipstack', 'weatherapi', 'dd_api', 'dd_app', 'dd-api', 'dd-app',
];

/** Between the vendor's name and the value: these words make the value an id or a version, not a key. */
const NOT_A_CREDENTIAL =
  /\b(?:ids?|request|trace|span|event|commit|sha\d*|hash|digest|version|build|run|job|org|organization|project|team|user(?:name)?|account|sid|region|zone|name|url|uri|host|endpoint|path|file|release|issue|ticket|incident|deployment|pipeline|site|domain|app_id|tenant|client_id|dsn_public|public)\b|_id\b|Id\b/i;

const vendorKeyword: Rule = {
  name: 'vendor-keyword',
  when: [keywords(VENDORS, { kind: 'vendor' })],
  pattern: new RegExp(
    String.raw`(?<![A-Za-z])(${VENDORS.join('|')})([\w.\-]{0,30}["']?[ \t]{0,4}(?:[:=]>?|[ \t])[^\r\n"'=:]{0,40}?[:=]?[ \t]{0,4}["']?)([A-Za-z0-9_+/.\-]{16,128}={0,2})(?![A-Za-z0-9_+/=\-])`,
    'gi',
  ),
  replace: (m: Match) => {
    const [vendor = '', between = '', value = ''] = m.groups;
    if (NOT_A_CREDENTIAL.test(between) || NOT_A_CREDENTIAL.test(value) || isPlaceholder(value) || looksLikePath(value)) return m.text;
    const clean = value.replace(/[.=]+$/, '');
    // With a word such as `key` or `token` in between, a hex string or UUID is the key
    // (Datadog, Heroku); without one, it is more likely an id (`twilio message SM<hex>`).
    const keyish = /key|token|secret|pass|auth|api|cred/i.test(between);
    const generated = keyish
      ? (isHex(clean) && clean.length >= 32) || isUuid(clean) || looksRandom(clean, 20)
      : looksRandom(clean, 20) && !/^[A-Za-z]{0,4}[0-9a-f]{24,}$/.test(clean);
    if (!generated) return m.text;
    const kind = `${vendor.toLowerCase().replace(/[_\-]/g, '').replace(/^dd(api|app)$/, 'datadog')}-key`;
    return `${vendor}${between}${marker(kind)}${value.slice(clean.length)}`;
  },
};

/**
 * AWS secret access keys: exactly 40 base64 characters with no base64 character on either
 * side. Mixed case and a digit keep 40-hex git SHAs; the randomness test keeps
 * 40-character paths and identifiers.
 */
const awsSecretShape: Rule = {
  name: 'aws-secret-key',
  when: [shape('base64-40')],
  pattern: /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])/g,
  replace: (m: Match) => {
    const value = m.text;
    if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return m.text;
    if (!looksRandom(value, 40) || looksLikePath(value)) return m.text;
    // Base64 of text (`eyJwYWdlIjoyfQ...` is a JSON cursor): random key bytes never decode to text.
    if (/^[\x20-\x7e]+$/.test(Buffer.from(value, 'base64').toString('latin1'))) return m.text;
    // A path such as `src/components/Header2/Navigation/Index1` has word-like segments.
    if (value.split('/').filter((s) => /^[A-Za-z][a-z]{2,}\d{0,2}$/.test(s)).length >= 2) return m.text;
    return marker('aws-secret-key');
  },
};

/**
 * A bare value passed to a call or constructor, or returned (`new VendorClient("...")`,
 * `Api('...')`, `return "..."`), with no name to go by: only a quoted string of 32 or
 * more characters that looks generated (both cases and digits, switching class often, not
 * hex, not a UUID, not base64 of text). A shorter or regular value there is out of reach.
 */
const quotedArgument: Rule = {
  name: 'quoted-argument',
  when: [keywords(['("', "('", 'return "', "return '"], { kind: 'tail', min: 32 })],
  pattern: /(\(\s{0,4}|\breturn\s{1,4})(["'])([A-Za-z0-9_\-+/=.~]{32,256})\2(?=\s{0,4}[),;]|\s*$)/g,
  replace: (m: Match) => {
    const [head = '', quote = '', value = ''] = m.groups;
    if (isHex(value) || isUuid(value) || looksLikePath(value) || !looksGeneratedMixed(value)) return m.text;
    if (/^[\x20-\x7e]+$/.test(Buffer.from(value, 'base64').toString('latin1'))) return m.text;
    return `${head}${quote}${marker('secret')}${quote}`;
  },
};

/** Both cases and digits, switching class as random characters do, with the entropy of random text. */
function looksGeneratedMixed(value: string): boolean {
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || (value.match(/[0-9]/g)?.length ?? 0) < 2 || isLowDiversity(value)) return false;
  return entropy(value) >= 4 && classChangeRatio(value) >= 0.3;
}

export const vendorRules: readonly Rule[] = [vendorKeyword, quotedArgument];
export const shapeRules: readonly Rule[] = [awsSecretShape];

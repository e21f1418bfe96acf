/**
 * Family 1: provider tokens recognisable by their prefix and length. The prefix makes
 * these the most precise rules, so they run first and give the most specific marker.
 * Lookarounds stop a match from starting or ending inside a longer token; every length is
 * bounded so that a long run of token characters cannot make a rule backtrack.
 */
import { marker } from '../marker.js';
import type { Match, Rule } from '../rule.js';
import { isLowDiversity } from '../value-shape.js';

interface ProviderToken {
  kind: string;
  keywords: string[];
  /**
   * Group 1, when present, is kept (a URL prefix such as `hooks.slack.com/services/`);
   * the rest of the match is the secret.
   */
  pattern: RegExp;
  /** Extra check on the secret, beyond rejecting low-diversity dummies. */
  accept?: (secret: string) => boolean;
}

/** Not preceded by a token character: the match starts where the token starts. */
const START = String.raw`(?<![A-Za-z0-9_\-])`;
/** Not followed by a token character. */
const END = String.raw`(?![A-Za-z0-9_\-])`;
const re = (source: string, flags = 'g'): RegExp => new RegExp(source, flags);

/** Has letters and digits: real tokens do, kebab-case names and words do not. */
const mixed = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s);

const TOKENS: ProviderToken[] = [
  { kind: 'aws-access-key', keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'], pattern: re(String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`) },
  { kind: 'aws-session-token', keywords: ['fwogzxivyxdz', 'iqojb3jpz2lu', 'iqodyxdz'], pattern: re(String.raw`(?<![A-Za-z0-9+/])(?:FwoGZXIvYXdz|IQoJb3JpZ2lu|IQoDYXdz)[A-Za-z0-9+/]{40,4000}={0,2}`) },
  { kind: 'github-token', keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], pattern: re(`${START}(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{40,255})${END}`) },
  { kind: 'gitlab-token', keywords: ['gl', 'gr1348941'], pattern: re(`${START}(?:gl(?:pat|dt|ptt|rt|soat|cbt|ffct|imt|agent|oas|ft|wt|rtr)-[A-Za-z0-9_\\-]{20,300}(?:\\.[A-Za-z0-9_\\-]{1,60}){0,3}|GR1348941[A-Za-z0-9_\\-]{20,64})${END}`) },
  { kind: 'slack-token', keywords: ['xox', 'xapp-'], pattern: re(String.raw`(?<![A-Za-z0-9])(?:xox[abposrec]-[A-Za-z0-9\-]{10,250}|xoxe\.xox[bp]-\d-[A-Za-z0-9\-]{20,250}|xapp-\d-[A-Za-z0-9\-]{20,250})`), accept: mixed },
  { kind: 'slack-webhook', keywords: ['hooks.slack.com'], pattern: re(String.raw`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9+/_\-]{16,200}`) },
  { kind: 'stripe-key', keywords: ['sk_', 'rk_', 'whsec_'], pattern: re(`${START}(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9+/=]{20,100})${END}`) },
  { kind: 'google-api-key', keywords: ['aiza'], pattern: re(`${START}AIza[A-Za-z0-9_\\-]{35}${END}`) },
  { kind: 'google-oauth', keywords: ['ya29.', 'gocspx-', '1//0'], pattern: re(String.raw`(?<![A-Za-z0-9_\-./:])(?:ya29\.[A-Za-z0-9_.\-]{20,2048}|GOCSPX-[A-Za-z0-9_\-]{20,40}|1//0[A-Za-z0-9_\-]{40,512})`) },
  { kind: 'anthropic-key', keywords: ['sk-ant-'], pattern: re(`${START}sk-ant-[a-z]{2,8}\\d{0,3}-[A-Za-z0-9_\\-]{20,300}${END}`) },
  { kind: 'openai-key', keywords: ['sk-'], pattern: re(`${START}sk-(?:proj-|svcacct-|admin-|None-|or-v1-)?[A-Za-z0-9_\\-]{20,300}${END}`), accept: (s) => mixed(s.slice(3)) && (s.match(/[0-9]/g)?.length ?? 0) >= 2 },
  { kind: 'xai-key', keywords: ['xai-'], pattern: re(`${START}xai-[A-Za-z0-9]{70,90}${END}`) },
  { kind: 'groq-key', keywords: ['gsk_'], pattern: re(`${START}gsk_[A-Za-z0-9]{48,56}${END}`) },
  { kind: 'replicate-token', keywords: ['r8_'], pattern: re(`${START}r8_[A-Za-z0-9]{37}${END}`) },
  { kind: 'pinecone-key', keywords: ['pcsk_'], pattern: re(`${START}pcsk_[A-Za-z0-9_]{40,100}${END}`) },
  { kind: 'nvidia-key', keywords: ['nvapi-'], pattern: re(`${START}nvapi-[A-Za-z0-9_\\-]{60,70}${END}`) },
  { kind: 'npm-token', keywords: ['npm_'], pattern: re(`${START}npm_[A-Za-z0-9]{36}${END}`) },
  { kind: 'pypi-token', keywords: ['pypi-ag'], pattern: re(`${START}pypi-Ag[A-Za-z0-9_\\-]{50,1000}`) },
  { kind: 'rubygems-key', keywords: ['rubygems_'], pattern: re(`${START}rubygems_[a-f0-9]{48}${END}`) },
  { kind: 'dockerhub-token', keywords: ['dckr_'], pattern: re(`${START}dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{20,40}${END}`) },
  { kind: 'sendgrid-key', keywords: ['sg.'], pattern: re(`${START}SG\\.[A-Za-z0-9_\\-]{16,32}\\.[A-Za-z0-9_\\-]{16,64}${END}`) },
  { kind: 'brevo-key', keywords: ['xkeysib-', 'xsmtpsib-'], pattern: re(`${START}x(?:key|smtp)sib-[a-f0-9]{64}-[A-Za-z0-9]{16}${END}`) },
  { kind: 'twilio-key', keywords: ['sk'], pattern: re(String.raw`(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])`) },
  { kind: 'huggingface-token', keywords: ['hf_', 'api_org_'], pattern: re(`${START}(?:hf_|api_org_)[A-Za-z0-9]{30,40}${END}`), accept: (s) => !/^hf_[a-z]+$/.test(s) },
  { kind: 'digitalocean-token', keywords: ['_v1_'], pattern: re(`${START}do[porn]_v1_[a-f0-9]{64}${END}`) },
  { kind: 'vault-token', keywords: ['hvs.', 'hvb.', 'hvr.'], pattern: re(String.raw`(?<![A-Za-z0-9_\-.])hv[sbr]\.[A-Za-z0-9_\-]{20,512}(?![A-Za-z0-9_\-])`) },
  { kind: 'doppler-token', keywords: ['dp.'], pattern: re(String.raw`(?<![A-Za-z0-9_\-.])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,64}(?![A-Za-z0-9])`) },
  { kind: 'databricks-token', keywords: ['dapi', 'dose'], pattern: re(String.raw`(?<![A-Za-z0-9])(?:dapi|dose)[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])`) },
  { kind: 'sentry-token', keywords: ['sntrys_', 'sntryu_'], pattern: re(`${START}(?:sntrys_[A-Za-z0-9+/=_]{50,400}|sntryu_[a-f0-9]{64})`) },
  { kind: 'linear-key', keywords: ['lin_'], pattern: re(`${START}lin_(?:api|oauth)_[A-Za-z0-9]{40}${END}`) },
  { kind: 'age-secret-key', keywords: ['age-secret-key-1'], pattern: re('AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}') },
  { kind: 'alibaba-key', keywords: ['ltai'], pattern: re(String.raw`(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'tencent-key', keywords: ['akid'], pattern: re(String.raw`(?<![A-Za-z0-9])AKID[A-Za-z0-9]{32}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'atlassian-token', keywords: ['atatt3', 'atctt3', 'atbb', 'atoa'], pattern: re(`${START}(?:ATATT3|ATCTT3|ATOA)[A-Za-z0-9_\\-=]{30,300}|${START}ATBB[A-Za-z0-9]{28,40}${END}`) },
  { kind: 'grafana-token', keywords: ['glc_', 'glsa_', 'eyjrijoi'], pattern: re(`${START}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9+/]{40,400}={0,2})`) },
  { kind: 'postman-key', keywords: ['pmak-'], pattern: re(`${START}PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}${END}`) },
  { kind: 'telegram-token', keywords: [':aa'], pattern: re(String.raw`(?:(?<=\bbot)|(?<![\w:]))\d{8,10}:AA[A-Za-z0-9_\-]{32,34}(?![\w\-])`) },
  { kind: 'discord-token', keywords: ['.'], pattern: re(String.raw`(?<![\w.\-])[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![\w\-])`), accept: mixed },
  { kind: 'discord-webhook', keywords: ['/api/webhooks/'], pattern: re(String.raw`(discord(?:app)?\.com/api/webhooks/\d{5,30}/)[A-Za-z0-9_\-]{30,100}`) },
  { kind: 'shopify-token', keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], pattern: re(`${START}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${END}`) },
  { kind: 'square-token', keywords: ['sq0', 'eaaa'], pattern: re(`${START}(?:sq0(?:atp|csp|idp)-[A-Za-z0-9_\\-]{22,60}|EAAA[A-Za-z0-9_\\-]{56,80})${END}`) },
  { kind: 'facebook-token', keywords: ['eaa'], pattern: re(String.raw`(?<![A-Za-z0-9])EAA[A-Za-z0-9]{90,400}(?![A-Za-z0-9])`) },
  { kind: 'mailgun-key', keywords: ['key-', '-'], pattern: re(String.raw`(?<![A-Za-z0-9\-])(?:key-[a-f0-9]{32}|[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8})(?![A-Za-z0-9\-])`) },
  { kind: 'mailchimp-key', keywords: ['-us'], pattern: re(String.raw`(?<![A-Za-z0-9])[a-f0-9]{32}-us\d{1,2}(?![A-Za-z0-9])`) },
  { kind: 'heroku-key', keywords: ['hrku-'], pattern: re(`${START}HRKU-[A-Za-z0-9_\\-]{40,80}${END}`) },
  { kind: 'pulumi-token', keywords: ['pul-'], pattern: re(`${START}pul-[a-f0-9]{40}${END}`) },
  { kind: 'terraform-token', keywords: ['.atlasv1.'], pattern: re(String.raw`(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,90}`) },
  { kind: 'notion-token', keywords: ['ntn_', 'secret_'], pattern: re(`${START}(?:ntn_\\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})${END}`), accept: mixed },
  { kind: 'dropbox-token', keywords: ['sl.'], pattern: re(String.raw`(?<![A-Za-z0-9_\-.])sl\.[A-Za-z0-9_\-]{130,1500}`) },
  { kind: '1password-token', keywords: ['ops_eyj'], pattern: re(`${START}ops_eyJ[A-Za-z0-9+/=_\\-]{50,2000}`) },
  { kind: 'jfrog-token', keywords: ['akcp', 'cmvmdgtu'], pattern: re(String.raw`(?<![A-Za-z0-9])(?:AKCp[A-Za-z0-9]{60,80}|cmVmdGtu[A-Za-z0-9]{50,70})(?![A-Za-z0-9])`) },
  { kind: 'posthog-key', keywords: ['phx_'], pattern: re(`${START}phx_[A-Za-z0-9]{43}${END}`) },
  { kind: 'planetscale-token', keywords: ['pscale_'], pattern: re(`${START}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.\\-]{32,64}${END}`) },
  { kind: 'figma-token', keywords: ['figd_'], pattern: re(`${START}figd_[A-Za-z0-9_\\-]{40}${END}`) },
  { kind: 'newrelic-key', keywords: ['nrak-', 'nrii-', 'nrjs-'], pattern: re(`${START}NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}${END}`) },
  { kind: 'contentful-token', keywords: ['cfpat-'], pattern: re(`${START}CFPAT-[A-Za-z0-9_\\-]{43}${END}`) },
  { kind: 'airtable-token', keywords: ['pat'], pattern: re(String.raw`(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])`) },
  { kind: 'tailscale-key', keywords: ['tskey-'], pattern: re(`${START}tskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,64}${END}`) },
  { kind: 'supabase-token', keywords: ['sbp_'], pattern: re(`${START}sbp_[a-f0-9]{40}${END}`) },
  { kind: 'buildkite-token', keywords: ['bkua_'], pattern: re(`${START}bkua_[a-f0-9]{40}${END}`) },
  { kind: 'circleci-token', keywords: ['ccipat_'], pattern: re(`${START}CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}${END}`) },
  { kind: 'sourcegraph-token', keywords: ['sgp_'], pattern: re(`${START}sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}${END}`) },
  { kind: 'prefect-key', keywords: ['pnu_'], pattern: re(`${START}pnu_[A-Za-z0-9]{36}${END}`) },
  { kind: 'mapbox-token', keywords: ['sk.eyj'], pattern: re(`${START}sk\\.eyJ[A-Za-z0-9_\\-]{20,200}\\.[A-Za-z0-9_\\-]{20,100}`) },
  { kind: 'dynatrace-token', keywords: ['dt0c01.'], pattern: re(String.raw`dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`) },
  { kind: 'cloudflare-key', keywords: ['v1.0-'], pattern: re(String.raw`(?<![A-Za-z0-9])v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`) },
  { kind: 'flyio-token', keywords: ['fm1', 'fm2_', 'fo1_'], pattern: re(`${START}(?:fm[12][ar]?_|fo1_)[A-Za-z0-9+/=_\\-]{40,2000}`) },
  { kind: 'octopus-key', keywords: ['api-'], pattern: re(String.raw`(?<![A-Za-z0-9\-])API-[A-Z0-9]{26,32}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'easypost-key', keywords: ['ezak'], pattern: re(String.raw`(?<![A-Za-z0-9])EZ[AT]K[A-Za-z0-9]{54}(?![A-Za-z0-9])`) },
  { kind: 'flutterwave-key', keywords: ['flwseck'], pattern: re(String.raw`FLWSECK(?:_TEST)?-[a-h0-9]{32}-X`) },
  { kind: 'duffel-token', keywords: ['duffel_'], pattern: re(`${START}duffel_(?:test|live)_[A-Za-z0-9_\\-]{43}${END}`) },
  { kind: 'plaid-token', keywords: ['access-sandbox-', 'access-development-', 'access-production-'], pattern: re(String.raw`access-(?:sandbox|development|production)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}`) },
  { kind: 'scaleway-key', keywords: ['scw'], pattern: re(String.raw`(?<![A-Za-z0-9])SCW[A-Z0-9]{17}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'clojars-token', keywords: ['clojars_'], pattern: re(`${START}CLOJARS_[a-z0-9]{60}${END}`) },
  { kind: 'shippo-token', keywords: ['shippo_'], pattern: re(`${START}shippo_(?:live|test)_[a-f0-9]{40}${END}`) },
  { kind: 'readme-key', keywords: ['rdme_'], pattern: re(`${START}rdme_[a-z0-9]{70}${END}`) },
  { kind: 'typeform-token', keywords: ['tfp_'], pattern: re(`${START}tfp_[A-Za-z0-9_\\-.=]{40,70}${END}`) },
  { kind: 'infracost-key', keywords: ['ico-'], pattern: re(`${START}ico-[A-Za-z0-9]{32}${END}`) },
  { kind: 'harness-token', keywords: ['pat.', 'sat.'], pattern: re(String.raw`(?<![A-Za-z0-9])(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[a-f0-9]{24}\.[A-Za-z0-9]{20}`) },
  // Azure AD client secrets: three characters, a digit, `Q~`, then 31-34 more.
  { kind: 'azure-client-secret', keywords: ['q~'], pattern: re(String.raw`(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])`) },
];

function toRule(token: ProviderToken): Rule {
  const hasKeptPrefix = token.pattern.source.startsWith('(') && !token.pattern.source.startsWith('(?');
  return {
    name: token.kind,
    keywords: token.keywords,
    pattern: token.pattern,
    replace: (m: Match) => {
      const kept = hasKeptPrefix ? (m.groups[0] ?? '') : '';
      const secret = m.text.slice(kept.length);
      const body = secret.replace(/^[A-Za-z]{1,8}[_.\-]/, '');
      if (isLowDiversity(body) || (token.accept && !token.accept(secret))) return m.text;
      return `${kept}${marker(token.kind)}`;
    },
  };
}

export const providerTokenRules: readonly Rule[] = TOKENS.map(toRule);

/** Kinds of provider tokens, for tests and documentation. */
export const providerTokenKinds: readonly string[] = TOKENS.map((t) => t.kind);

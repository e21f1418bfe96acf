/**
 * Family 1: provider tokens recognisable by their prefix and length. The prefix makes
 * these the most precise rules, so they run first and give the most specific marker.
 * Lookarounds stop a match from starting or ending inside a longer token; every length is
 * bounded so that a long run of token characters cannot make a rule backtrack.
 */
import { type Condition, keywords, shape } from '../conditions.js';
import { marker } from '../marker.js';
import type { Match, Rule } from '../rule.js';
import { isMasked } from '../value-shape.js';

interface ProviderToken {
  kind: string;
  /**
   * Literals one of which the token holds (lowercase), and how many token characters at
   * least follow the literal in a real token: the scan's condition for this rule.
   */
  prefixes: string[];
  min: number;
  /**
   * Group 1, when present, is kept (a URL prefix such as `hooks.slack.com/services/`);
   * the rest of the match is the secret.
   */
  pattern: RegExp;
  /** Extra check on the secret, beyond rejecting masked dummies. */
  accept?: (secret: string) => boolean;
  /** Conditions other than `prefixes` followed by `min` token characters. */
  when?: Condition[];
}

/** Not preceded by a token character: the match starts where the token starts. */
const START = String.raw`(?<![A-Za-z0-9_\-])`;
/** Not followed by a token character. */
const END = String.raw`(?![A-Za-z0-9_\-])`;
const re = (source: string, flags = 'g'): RegExp => new RegExp(source, flags);
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Has letters and digits: real tokens do, kebab-case names and words do not. */
const mixed = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s);
/** Base64 of a PEM private key (kubeconfig `client-key-data`, Helm values). */
const isEncodedPrivateKey = (s: string): boolean => /PRIVATE KEY/.test(Buffer.from(s.slice(0, 80), 'base64').toString('latin1'));

const TOKENS: ProviderToken[] = [
  { kind: 'aws-access-key', prefixes: ['akia', 'asia', 'abia', 'acca', 'a3t'], min: 16, pattern: re(String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`) },
  { kind: 'aws-session-token', prefixes: ['fwogzxivyxdz', 'iqojb3jpz2lu', 'iqodyxdz'], min: 40, pattern: re(String.raw`(?<![A-Za-z0-9+/])(?:FwoGZXIvYXdz|IQoJb3JpZ2lu|IQoDYXdz)[A-Za-z0-9+/]{40,4000}={0,2}`) },
  { kind: 'github-token', prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], min: 30, pattern: re(`${START}(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{40,255})${END}`) },
  { kind: 'gitlab-token', prefixes: ['glpat-', 'gldt-', 'glptt-', 'glrt-', 'glsoat-', 'glcbt-', 'glffct-', 'glimt-', 'glagent-', 'gloas-', 'glft-', 'glwt-', 'glrtr-', 'gr1348941'], min: 20, pattern: re(`${START}(?:gl(?:pat|dt|ptt|rt|soat|cbt|ffct|imt|agent|oas|ft|wt|rtr)-[A-Za-z0-9_\\-]{20,300}(?:\\.[A-Za-z0-9_\\-]{1,60}){0,3}|GR1348941[A-Za-z0-9_\\-]{20,64})${END}`) },
  { kind: 'slack-token', prefixes: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xoxc-', 'xoxe.xox', 'xapp-'], min: 10, pattern: re(String.raw`(?<![A-Za-z0-9])(?:xox[abposrec]-[A-Za-z0-9\-]{10,250}|xoxe\.xox[bp]-\d-[A-Za-z0-9\-]{20,250}|xapp-\d-[A-Za-z0-9\-]{20,250})`), accept: mixed },
  { kind: 'slack-webhook', prefixes: ['hooks.slack.com/'], min: 16, pattern: re(String.raw`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9+/_\-]{16,200}`) },
  { kind: 'stripe-key', prefixes: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_', 'whsec_'], min: 10, pattern: re(`${START}(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9+/=]{20,100})${END}`) },
  { kind: 'google-api-key', prefixes: ['aiza'], min: 35, pattern: re(`${START}AIza[A-Za-z0-9_\\-]{35}${END}`) },
  { kind: 'google-oauth', prefixes: ['ya29.', 'gocspx-', '1//0'], min: 20, pattern: re(String.raw`(?<![A-Za-z0-9_\-./:])(?:ya29\.[A-Za-z0-9_.\-]{20,2048}|GOCSPX-[A-Za-z0-9_\-]{20,40}|1//0[A-Za-z0-9_\-]{40,512})`) },
  { kind: 'anthropic-key', prefixes: ['sk-ant-'], min: 20, pattern: re(`${START}sk-ant-[a-z]{2,8}\\d{0,3}-[A-Za-z0-9_\\-]{20,300}${END}`) },
  { kind: 'langfuse-key', prefixes: ['sk-lf-'], min: 36, pattern: re(`${START}sk-lf-${UUID}${END}`, 'gi') },
  { kind: 'openai-key', prefixes: ['sk-'], min: 20, pattern: re(`${START}sk-(?:proj-|svcacct-|admin-|None-|or-v1-)?[A-Za-z0-9_\\-]{20,300}${END}`), accept: (s) => mixed(s.slice(3)) && (s.match(/[0-9]/g)?.length ?? 0) >= 2 },
  { kind: 'langsmith-key', prefixes: ['lsv2_'], min: 40, pattern: re(`${START}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}${END}`) },
  { kind: 'perplexity-key', prefixes: ['pplx-'], min: 40, pattern: re(`${START}pplx-[A-Za-z0-9]{40,64}${END}`) },
  { kind: 'tavily-key', prefixes: ['tvly-'], min: 24, pattern: re(`${START}tvly-(?:dev-|prod-)?[A-Za-z0-9]{24,48}${END}`) },
  { kind: 'cerebras-key', prefixes: ['csk-'], min: 40, pattern: re(`${START}csk-[a-z0-9]{40,60}${END}`), accept: mixed },
  { kind: 'fireworks-key', prefixes: ['fw_'], min: 20, pattern: re(`${START}fw_[A-Za-z0-9]{20,40}${END}`), accept: mixed },
  { kind: 'xai-key', prefixes: ['xai-'], min: 70, pattern: re(`${START}xai-[A-Za-z0-9]{70,90}${END}`) },
  { kind: 'groq-key', prefixes: ['gsk_'], min: 48, pattern: re(`${START}gsk_[A-Za-z0-9]{48,56}${END}`) },
  { kind: 'replicate-token', prefixes: ['r8_'], min: 37, pattern: re(`${START}r8_[A-Za-z0-9]{37}${END}`) },
  { kind: 'pinecone-key', prefixes: ['pcsk_'], min: 40, pattern: re(`${START}pcsk_[A-Za-z0-9_]{40,100}${END}`) },
  { kind: 'nvidia-key', prefixes: ['nvapi-'], min: 60, pattern: re(`${START}nvapi-[A-Za-z0-9_\\-]{60,70}${END}`) },
  { kind: 'anyscale-key', prefixes: ['esecret_'], min: 20, pattern: re(`${START}esecret_[A-Za-z0-9_]{20,80}${END}`), accept: mixed },
  { kind: 'npm-token', prefixes: ['npm_'], min: 36, pattern: re(`${START}npm_[A-Za-z0-9]{36}${END}`) },
  { kind: 'pypi-token', prefixes: ['pypi-ag'], min: 50, pattern: re(`${START}pypi-Ag[A-Za-z0-9_\\-]{50,1000}`) },
  { kind: 'ruby-gems-key', prefixes: ['rubygems_'], min: 48, pattern: re(`${START}rubygems_[a-f0-9]{48}${END}`) },
  { kind: 'nuget-key', prefixes: ['oy2'], min: 43, pattern: re(`${START}oy2[a-z0-9]{43}${END}`), accept: mixed },
  { kind: 'clojars-token', prefixes: ['clojars_'], min: 60, pattern: re(`${START}CLOJARS_[a-z0-9]{60}${END}`) },
  { kind: 'dockerhub-token', prefixes: ['dckr_pat_', 'dckr_oat_'], min: 20, pattern: re(`${START}dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{20,40}${END}`) },
  { kind: 'sendgrid-key', prefixes: ['sg.'], min: 33, pattern: re(`${START}SG\\.[A-Za-z0-9_\\-]{16,32}\\.[A-Za-z0-9_\\-]{16,64}${END}`) },
  { kind: 'brevo-key', prefixes: ['xkeysib-', 'xsmtpsib-'], min: 64, pattern: re(`${START}x(?:key|smtp)sib-[a-f0-9]{64}-[A-Za-z0-9]{16}${END}`) },
  { kind: 'resend-key', prefixes: ['re_'], min: 30, pattern: re(`${START}re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}${END}`), accept: mixed },
  { kind: 'twilio-key', prefixes: ['sk'], min: 32, pattern: re(String.raw`(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])`) },
  { kind: 'huggingface-token', prefixes: ['hf_', 'api_org_'], min: 30, pattern: re(`${START}(?:hf_|api_org_)[A-Za-z0-9]{30,40}${END}`), accept: (s) => !/^hf_[a-z]+$/.test(s) },
  { kind: 'digitalocean-token', prefixes: ['_v1_'], min: 64, pattern: re(`${START}do[porn]_v1_[a-f0-9]{64}${END}`) },
  { kind: 'vault-token', prefixes: ['hvs.', 'hvb.', 'hvr.'], min: 20, pattern: re(String.raw`(?<![A-Za-z0-9_\-.])hv[sbr]\.[A-Za-z0-9_\-]{20,512}(?![A-Za-z0-9_\-])`) },
  { kind: 'doppler-token', prefixes: ['dp.'], min: 40, pattern: re(String.raw`(?<![A-Za-z0-9_\-.])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,64}(?![A-Za-z0-9])`) },
  { kind: 'databricks-token', prefixes: ['dapi', 'dose'], min: 32, pattern: re(String.raw`(?<![A-Za-z0-9])(?:dapi|dose)[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])`) },
  { kind: 'sentry-token', prefixes: ['sntrys_', 'sntryu_'], min: 50, pattern: re(`${START}(?:sntrys_[A-Za-z0-9+/=_]{50,400}|sntryu_[a-f0-9]{64})`) },
  { kind: 'linear-key', prefixes: ['lin_api_', 'lin_oauth_'], min: 40, pattern: re(`${START}lin_(?:api|oauth)_[A-Za-z0-9]{40}${END}`) },
  { kind: 'age-secret-key', prefixes: ['age-secret-key-1'], min: 58, pattern: re('AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}') },
  { kind: 'alibaba-key', prefixes: ['ltai'], min: 12, pattern: re(String.raw`(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'tencent-key', prefixes: ['akid'], min: 32, pattern: re(String.raw`(?<![A-Za-z0-9])AKID[A-Za-z0-9]{32}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'yandex-key', prefixes: ['aqvn', 'yc', 't1.'], min: 35, pattern: re(String.raw`(?<![A-Za-z0-9_\-.])(?:AQVN[A-Za-z0-9_\-]{35,38}|YC[A-Za-z0-9_\-]{38}|t1\.[A-Za-z0-9_\-]{20,400}={0,2}\.[A-Za-z0-9_\-]{86}={0,2})(?![A-Za-z0-9_\-])`), accept: mixed },
  { kind: 'atlassian-token', prefixes: ['atatt3', 'atctt3', 'atoa', 'atbb'], min: 28, pattern: re(`${START}(?:ATATT3|ATCTT3|ATOA)[A-Za-z0-9_\\-=]{30,300}|${START}ATBB[A-Za-z0-9]{28,40}${END}`) },
  { kind: 'grafana-token', prefixes: ['glc_', 'glsa_', 'eyjrijoi'], min: 32, pattern: re(`${START}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9+/]{40,400}={0,2})`) },
  { kind: 'postman-key', prefixes: ['pmak-'], min: 59, pattern: re(`${START}PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}${END}`) },
  { kind: 'telegram-token', prefixes: [':aa'], min: 32, pattern: re(String.raw`(?:(?<=\bbot)|(?<![\w:]))\d{8,10}:AA[A-Za-z0-9_\-]{32,34}(?![\w\-])`) },
  { kind: 'discord-token', prefixes: [], min: 0, when: [shape('token-dot')], pattern: re(String.raw`(?<![\w.\-])[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![\w\-])`), accept: mixed },
  { kind: 'discord-webhook', prefixes: ['/api/webhooks/'], min: 30, pattern: re(String.raw`(discord(?:app)?\.com/api/webhooks/\d{5,30}/)[A-Za-z0-9_\-]{30,100}`) },
  { kind: 'teams-webhook', prefixes: ['.webhook.office.com/'], min: 40, pattern: re(String.raw`(\.webhook\.office\.com/webhookb2/[0-9a-f\-]{36}@[0-9a-f\-]{36}/IncomingWebhook/)[A-Za-z0-9]{32}/[0-9a-f\-]{36}(?:/[A-Za-z0-9_\-]{20,80})?`, 'gi') },
  { kind: 'zapier-webhook', prefixes: ['hooks.zapier.com/'], min: 20, pattern: re(String.raw`(hooks\.zapier\.com/hooks/catch/\d{3,12}/)[a-z0-9]{5,12}`) },
  { kind: 'shopify-token', prefixes: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], min: 32, pattern: re(`${START}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${END}`) },
  { kind: 'square-token', prefixes: ['sq0atp-', 'sq0csp-', 'sq0idp-', 'eaaa'], min: 22, pattern: re(`${START}(?:sq0(?:atp|csp|idp)-[A-Za-z0-9_\\-]{22,60}|EAAA[A-Za-z0-9_\\-]{56,80})${END}`) },
  { kind: 'facebook-token', prefixes: ['eaa'], min: 90, pattern: re(String.raw`(?<![A-Za-z0-9])EAA[A-Za-z0-9]{90,400}(?![A-Za-z0-9])`) },
  { kind: 'instagram-token', prefixes: ['igqv'], min: 100, pattern: re(String.raw`(?<![A-Za-z0-9])IGQV[A-Za-z0-9_\-]{100,400}(?![A-Za-z0-9])`) },
  { kind: 'twitter-bearer', prefixes: ['aaaaaaaaaaaaaaaaaaaaa'], min: 30, pattern: re(String.raw`(?<![A-Za-z0-9])A{21,24}[A-Za-z0-9%]{30,200}(?![A-Za-z0-9%])`), accept: mixed },
  { kind: 'mailgun-key', prefixes: ['key-'], min: 32, when: [shape('hex32-dash')], pattern: re(String.raw`(?<![A-Za-z0-9\-])(?:key-[a-f0-9]{32}|[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8})(?![A-Za-z0-9\-])`) },
  { kind: 'mailchimp-key', prefixes: [], min: 0, when: [shape('hex32-dash')], pattern: re(String.raw`(?<![A-Za-z0-9])[a-f0-9]{32}-us\d{1,2}(?![A-Za-z0-9])`) },
  { kind: 'heroku-key', prefixes: ['hrku-'], min: 40, pattern: re(`${START}HRKU-[A-Za-z0-9_\\-]{40,80}${END}`) },
  { kind: 'pulumi-token', prefixes: ['pul-'], min: 40, pattern: re(`${START}pul-[a-f0-9]{40}${END}`) },
  { kind: 'terraform-token', prefixes: ['.atlasv1.'], min: 60, pattern: re(String.raw`(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,90}`) },
  { kind: 'notion-token', prefixes: ['ntn_', 'secret_'], min: 43, pattern: re(`${START}(?:ntn_\\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})${END}`), accept: mixed },
  { kind: 'dropbox-token', prefixes: ['sl.'], min: 130, pattern: re(String.raw`(?<![A-Za-z0-9_\-.])sl\.(?:u\.)?[A-Za-z0-9_\-]{130,1500}`) },
  { kind: '1password-token', prefixes: ['ops_eyj'], min: 50, pattern: re(`${START}ops_eyJ[A-Za-z0-9+/=_\\-]{50,2000}`) },
  { kind: 'jfrog-token', prefixes: ['akcp', 'cmvmdgtu'], min: 50, pattern: re(String.raw`(?<![A-Za-z0-9])(?:AKCp[A-Za-z0-9]{60,80}|cmVmdGtu[A-Za-z0-9]{50,70})(?![A-Za-z0-9])`) },
  { kind: 'posthog-key', prefixes: ['phx_'], min: 43, pattern: re(`${START}phx_[A-Za-z0-9]{43}${END}`) },
  { kind: 'planetscale-token', prefixes: ['pscale_tkn_', 'pscale_pw_', 'pscale_oauth_'], min: 32, pattern: re(`${START}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.\\-]{32,64}${END}`) },
  { kind: 'neon-key', prefixes: ['napi_'], min: 60, pattern: re(`${START}napi_[a-z0-9]{60,72}${END}`), accept: mixed },
  { kind: 'supabase-token', prefixes: ['sbp_', 'sb_secret_'], min: 30, pattern: re(`${START}(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\\-]{30,60})${END}`) },
  { kind: 'netlify-token', prefixes: ['nfp_'], min: 36, pattern: re(`${START}nfp_[A-Za-z0-9]{36,40}${END}`) },
  { kind: 'render-key', prefixes: ['rnd_'], min: 32, pattern: re(`${START}rnd_[A-Za-z0-9]{32}${END}`), accept: mixed },
  { kind: 'vercel-token', prefixes: ['vercel_blob_rw_'], min: 40, pattern: re(`${START}vercel_blob_rw_[A-Za-z0-9]{16}_[A-Za-z0-9]{30}${END}`) },
  { kind: 'figma-token', prefixes: ['figd_'], min: 40, pattern: re(`${START}figd_[A-Za-z0-9_\\-]{40}${END}`) },
  { kind: 'newrelic-key', prefixes: ['nrak-', 'nrii-', 'nrjs-'], min: 19, pattern: re(`${START}NR(?:AK|II|JS)-[A-Za-z0-9]{19,32}${END}`) },
  { kind: 'contentful-token', prefixes: ['cfpat-'], min: 43, pattern: re(`${START}CFPAT-[A-Za-z0-9_\\-]{43}${END}`) },
  { kind: 'airtable-token', prefixes: ['pat'], min: 79, pattern: re(String.raw`(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])`) },
  { kind: 'hubspot-token', prefixes: ['pat-na1-', 'pat-eu1-'], min: 36, pattern: re(`${START}pat-(?:na|eu)1-${UUID}${END}`) },
  { kind: 'clickup-token', prefixes: ['pk_'], min: 40, pattern: re(`${START}pk_\\d{6,10}_[A-Z0-9]{32}${END}`) },
  { kind: 'tailscale-key', prefixes: ['tskey-'], min: 20, pattern: re(`${START}tskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,64}${END}`) },
  { kind: 'buildkite-token', prefixes: ['bkua_'], min: 40, pattern: re(`${START}bkua_[a-f0-9]{40}${END}`) },
  { kind: 'circleci-token', prefixes: ['ccipat_'], min: 60, pattern: re(`${START}CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}${END}`) },
  { kind: 'sourcegraph-token', prefixes: ['sgp_'], min: 40, pattern: re(`${START}sgp_(?:local_|[a-f0-9]{16}_)?[a-f0-9]{40}${END}`) },
  { kind: 'sonarqube-token', prefixes: ['sqp_', 'squ_', 'sqa_'], min: 40, pattern: re(`${START}sq[pua]_[a-f0-9]{40}${END}`) },
  { kind: 'prefect-key', prefixes: ['pnu_'], min: 36, pattern: re(`${START}pnu_[A-Za-z0-9]{36}${END}`) },
  { kind: 'mapbox-token', prefixes: ['sk.eyj'], min: 40, pattern: re(`${START}sk\\.eyJ[A-Za-z0-9_\\-]{20,200}\\.[A-Za-z0-9_\\-]{20,100}`) },
  { kind: 'dynatrace-token', prefixes: ['dt0c01.'], min: 80, pattern: re(String.raw`dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`) },
  { kind: 'cloudflare-key', prefixes: ['v1.0-'], min: 100, pattern: re(String.raw`(?<![A-Za-z0-9])v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`) },
  { kind: 'flyio-token', prefixes: ['fm1', 'fm2_', 'fo1_'], min: 40, pattern: re(`${START}(?:fm[12][ar]?_|fo1_)[A-Za-z0-9+/=_\\-]{40,2000}`) },
  { kind: 'octopus-key', prefixes: ['api-'], min: 26, pattern: re(String.raw`(?<![A-Za-z0-9\-])API-[A-Z0-9]{26,32}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'easypost-key', prefixes: ['ezak', 'eztk'], min: 54, pattern: re(String.raw`(?<![A-Za-z0-9])EZ[AT]K[A-Za-z0-9]{54}(?![A-Za-z0-9])`) },
  { kind: 'flutterwave-key', prefixes: ['flwseck'], min: 32, pattern: re(String.raw`FLWSECK(?:_TEST)?-[a-h0-9]{32}-X`) },
  { kind: 'duffel-token', prefixes: ['duffel_test_', 'duffel_live_'], min: 43, pattern: re(`${START}duffel_(?:test|live)_[A-Za-z0-9_\\-]{43}${END}`) },
  { kind: 'plaid-token', prefixes: ['access-sandbox-', 'access-development-', 'access-production-'], min: 36, pattern: re(`access-(?:sandbox|development|production)-${UUID}`) },
  { kind: 'payment-key', prefixes: ['live_', 'test_'], min: 30, pattern: re(`${START}(?:live|test)_[A-Za-z0-9_=\\-]{30,48}${END}`), accept: (s) => mixed(s) && !/_[a-z]+_[a-z]+_/.test(s) },
  { kind: 'razorpay-key', prefixes: ['rzp_live_', 'rzp_test_'], min: 14, pattern: re(`${START}rzp_(?:live|test)_[A-Za-z0-9]{14}${END}`) },
  { kind: 'braintree-token', prefixes: ['$production$', '$sandbox$'], min: 0, pattern: re(String.raw`access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}`) },
  { kind: 'pubnub-key', prefixes: ['sec-c-'], min: 40, pattern: re(`${START}sec-c-[A-Za-z0-9]{40,60}${END}`) },
  { kind: 'firebase-key', prefixes: [':apa91b'], min: 100, pattern: re(String.raw`(?<![A-Za-z0-9_\-])AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,200}`) },
  { kind: 'riot-key', prefixes: ['rgapi-'], min: 36, pattern: re(`${START}RGAPI-${UUID}${END}`) },
  { kind: 'scaleway-key', prefixes: ['scw'], min: 17, pattern: re(String.raw`(?<![A-Za-z0-9])SCW[A-Z0-9]{17}(?![A-Za-z0-9])`), accept: mixed },
  { kind: 'shippo-token', prefixes: ['shippo_live_', 'shippo_test_'], min: 40, pattern: re(`${START}shippo_(?:live|test)_[a-f0-9]{40}${END}`) },
  { kind: 'readme-key', prefixes: ['rdme_'], min: 70, pattern: re(`${START}rdme_[a-z0-9]{70}${END}`) },
  { kind: 'typeform-token', prefixes: ['tfp_'], min: 40, pattern: re(`${START}tfp_[A-Za-z0-9_\\-.=]{40,70}${END}`) },
  { kind: 'infracost-key', prefixes: ['ico-'], min: 32, pattern: re(`${START}ico-[A-Za-z0-9]{32}${END}`) },
  { kind: 'harness-token', prefixes: ['pat.', 'sat.'], min: 60, pattern: re(String.raw`(?<![A-Za-z0-9])(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[a-f0-9]{24}\.[A-Za-z0-9]{20}`) },
  { kind: 'openshift-token', prefixes: ['sha256~'], min: 43, pattern: re(`${START}sha256~[A-Za-z0-9_\\-]{43}${END}`) },
  { kind: 'frameio-token', prefixes: ['fio-u-'], min: 64, pattern: re(`${START}fio-u-[A-Za-z0-9_=\\-]{64}${END}`) },
  { kind: 'scalingo-token', prefixes: ['tk-us-'], min: 48, pattern: re(`${START}tk-us-[A-Za-z0-9_\\-]{48}${END}`) },
  { kind: 'adafruit-key', prefixes: ['aio_'], min: 28, pattern: re(`${START}aio_[A-Za-z0-9]{28}${END}`), accept: mixed },
  { kind: 'adobe-secret', prefixes: ['p8e-'], min: 32, pattern: re(`${START}p8e-[A-Za-z0-9]{32}${END}`), accept: mixed },
  { kind: 'defined-networking-key', prefixes: ['dnkey-'], min: 70, pattern: re(`${START}dnkey-[a-z0-9=_\\-]{26}-[a-z0-9=_\\-]{52}${END}`) },
  { kind: 'settlemint-token', prefixes: ['sm_pat_', 'sm_aat_', 'sm_sat_'], min: 16, pattern: re(`${START}sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}${END}`) },
  { kind: 'intra42-secret', prefixes: ['s-s4t2'], min: 64, pattern: re(`${START}s-s4t2(?:ud|af)-[a-f0-9]{64}${END}`) },
  { kind: 'private-key', prefixes: ['ls0tls1crudjti'], min: 20, pattern: re(String.raw`(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,20000}={0,2}`), accept: isEncodedPrivateKey },
  // Azure AD client secrets: three characters, a digit, `Q~`, then 31-34 more.
  { kind: 'azure-client-secret', prefixes: ['q~'], min: 31, pattern: re(String.raw`(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])`) },
];

function toRule(token: ProviderToken): Rule {
  const hasKeptPrefix = token.pattern.source.startsWith('(') && !token.pattern.source.startsWith('(?');
  const when = [...(token.when ?? []), ...(token.prefixes.length > 0 ? [keywords(token.prefixes, { kind: 'tail', min: token.min })] : [])];
  return {
    name: token.kind,
    when,
    pattern: token.pattern,
    replace: (m: Match) => {
      const kept = hasKeptPrefix ? (m.groups[0] ?? '') : '';
      const secret = m.text.slice(kept.length);
      // A known prefix with a full-length body is a secret however regular the body
      // (`sk_live_1111...`); only a masked one (`ghp_xxxx...`, `AKIA****`) is a placeholder.
      const body = secret.replace(/^[A-Za-z0-9]{1,8}[_.\-]/, '').replace(/^(?:AKIA|ASIA|ABIA|ACCA)/, '');
      if (isMasked(body) || (token.accept && !token.accept(secret))) return m.text;
      return `${kept}${marker(token.kind)}`;
    },
  };
}

export const providerTokenRules: readonly Rule[] = TOKENS.map(toRule);

/** Kinds of provider tokens, for tests and documentation. */
export const providerTokenKinds: readonly string[] = TOKENS.map((t) => t.kind);

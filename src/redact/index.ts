/**
 * The one redaction module every shown string passes through (log examples and templates,
 * json_shape examples, system_info command lines, grep_raw lines, `wisp redact`).
 *
 * What goes: provider tokens (116 prefixed kinds), vendor keywords near opaque values,
 * credential assignments in every syntax (the key name stays), PEM private keys (BEGIN and
 * END lines stay), JWTs, URL passwords (the user stays), Authorization values (the scheme
 * word stays), session cookies, AWS secret keys by shape, and validated personal data:
 * emails, phones, card numbers (Luhn + issuer), IBANs (mod 97), US SSNs.
 *
 * Public IPv4: redacted. A client's public address is personal data (GDPR recital 30,
 * CCPA) and an agent reading condensed output rarely needs the exact address. Private
 * (RFC 1918), loopback, link-local, CGNAT (100.64/10), multicast and reserved addresses
 * stay: they describe infrastructure, identify no one, and are what debugging needs.
 * Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) are treated as
 * public because examples use them to stand for public addresses. Networks (`5.5.224.0`,
 * `203.0.113.0/24`) and version-like contexts (`v1.2.3.4`, `firmware 3.10.8.3`,
 * `Chrome/120.0.1.2`) are left alone.
 *
 * What stays: UUIDs, git SHAs, hashes and digests, base64 of non-secrets, paths, versions,
 * timestamps, request ids, messages about credentials ("token expired"), and placeholders
 * (`${VAR}`, `{{ x }}`, `<...>`, `****`), which tell the reader what is expected.
 *
 * Escaped secrets (`?token%3Dghp_...`, `\u0022password\u0022:...`) are found in a decoded
 * view of the text and replaced where they are written (decoded-view.ts).
 *
 * Markers are typed and do not look like secrets: `[REDACTED:github-token]`.
 *
 * Speed and safety: one scan of the text (scan.ts) finds which rules' conditions hold
 * (keywords in their surroundings, digit layouts, base64 runs) and only those rules run;
 * the same scan over bytes is the screen `mayNeedRedaction`. Rules use bounded quantifiers
 * anchored by lookbehinds, so no input makes them backtrack; nothing recurses over the
 * input; text past 64 KiB is redacted in segments cut at newlines or spaces; a line a rule
 * fails on becomes a marker.
 */
import { ESCAPED_TEXT, redactEscaped } from './decoded-view.js';
import { withEscapesMasked } from './escapes.js';
import { classifyKey } from './key-names.js';
import { marker } from './marker.js';
import { RULE_SET } from './rule-set.js';
import { isSecretValue } from './rules/assignments.js';
import { PEM_BEGIN, PEM_END } from './rules/structure.js';
import { mapSegments } from './segments.js';

export { marker } from './marker.js';
export { mayNeedRedaction } from './screen.js';
export { RULE_NAMES } from './rule-set.js';

/** What a line that a rule failed on becomes: nothing of it is shown. */
export const UNPROCESSED = marker('unprocessed-line');

/** The rules that take a line of key material; LineRedactor turns them off inside certificates. */
const KEY_LINE_RULES = RULE_SET.rules.flatMap((r, i) => (r.name === 'private-key-line' ? [i] : []));
/** The escape condition's place: it sends text to the decoded view, and is no rule to apply. */
const ESCAPED_TEXT_RULE = RULE_SET.rules.indexOf(ESCAPED_TEXT);

function redactSegment(segment: string, run: Uint8Array): string {
  const apply = (text: string): string => withEscapesMasked(text, (masked) => RULE_SET.apply(masked, run));
  try {
    return apply(segment);
  } catch {
    // A rule failed (no input should make one, but none may take the other lines down
    // with it): each line again on its own, and the lines that still fail become markers.
    return segment
      .split('\n')
      .map((line) => {
        try {
          return apply(line);
        } catch {
          return UNPROCESSED;
        }
      })
      .join('\n');
  }
}

/**
 * Returns `text` with credentials and personal data replaced by typed markers. One scan
 * of the text decides which rules can change it; a text none can change comes back as it
 * is (the same verdict `mayNeedRedaction` gives on its bytes).
 */
export function redact(text: string): string {
  return redactWith(text, false);
}

/**
 * As decoded where it holds `%XX` or `\uXXXX` escapes (decoded-view.ts), then as written.
 * Decoded first: a rule that reads the text as written can take part of an escaped token
 * (`%20sk_live_...` is no token to it, its body a key by shape) and leave its prefix.
 */
function redactWith(text: string, publicKeyMaterial: boolean): string {
  return redactAsWritten(redactEscaped(text, (view) => redactAsWritten(view, publicKeyMaterial)), publicKeyMaterial);
}

function redactAsWritten(text: string, publicKeyMaterial: boolean): string {
  if (text.length === 0) return text;
  const run = RULE_SET.rulesFor(text);
  run[ESCAPED_TEXT_RULE] = 0;
  if (publicKeyMaterial) for (const r of KEY_LINE_RULES) run[r] = 0;
  if (!run.includes(1)) return text;
  return mapSegments(text, (segment) => redactSegment(segment, run));
}

/** `-----BEGIN CERTIFICATE-----`, `-----BEGIN PUBLIC KEY-----`: what follows is public. */
const PUBLIC_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40} (?:CERTIFICATE|PUBLIC KEY)[A-Z0-9 ]{0,20}-----/;
const PUBLIC_END = /-----END[A-Z0-9 ]{0,40} (?:CERTIFICATE|PUBLIC KEY)[A-Z0-9 ]{0,20}-----/;

/** A line of a private key's body: base64, a `Proc-Type:`-style header, or blank. */
const KEY_MATERIAL_LINE = /^([ \t]*)(?:(?:[A-Za-z0-9+/=]{1,128}|[A-Za-z][A-Za-z\-]{0,30}: [^\r\n]{0,200})[ \t]*)?\r?$/;
/** Longest private key body we follow, in lines (an 8192-bit RSA key has about 100). */
const MAX_KEY_LINES = 400;
/** `- name: DB_PASSWORD` in a Kubernetes env list, or `name = "API_TOKEN"`. */
const NAME_LINE = /^[ \t]*(?:-[ \t]*)?["']?name["']?[ \t]*[:=][ \t]*["']?([\w.\-]{1,64})["']?[ \t]*(?:,[ \t]*)?\r?$/;
/** `  value: hunter2`, the line after a NAME_LINE. */
const VALUE_LINE = /^([ \t]*(?:-[ \t]*)?["']?value["']?[ \t]*[:=][ \t]*)(["']?)([^\r\n]{1,512}?)\2([ \t]*(?:,[ \t]*)?\r?)$/;

/**
 * Redacts a stream line by line, carrying what one line says about the next: inside a
 * private key block, body lines become markers until the END line; after `name: PASSWORD`,
 * the `value:` line is a secret. Every input line gives exactly one output line.
 */
export class LineRedactor {
  #inPrivateKey = false;
  /** Inside a certificate or public key block: its base64 lines are not secrets. */
  #inPublicBlock = false;
  #keyLines = 0;
  #secretName: string | undefined;

  /** Redacts one line (without its newline). */
  line(line: string): string {
    const secretName = this.#secretName;
    this.#secretName = undefined;

    if (this.#inPrivateKey) {
      const end = PEM_END.exec(line);
      if (end !== null) {
        this.#inPrivateKey = false;
        const before = line.slice(0, end.index);
        const indent = /^[ \t]*/.exec(before)?.[0] ?? '';
        const shownBefore = before.trim() === '' ? before : `${indent}${marker('private-key')}`;
        return `${shownBefore}${redact(line.slice(end.index))}`;
      }
      const material = KEY_MATERIAL_LINE.exec(line);
      // `Proc-Type:`/`DEK-Info:` headers come first; later, `Word: text` is a log line again.
      const isHeader = material !== null && line.includes(': ');
      if (material !== null && this.#keyLines < MAX_KEY_LINES && (!isHeader || this.#keyLines < 3)) {
        this.#keyLines++;
        return line.trim() === '' ? line : `${material[1] ?? ''}${marker('private-key')}`;
      }
      this.#inPrivateKey = false;
    }

    if (secretName !== undefined) {
      const value = VALUE_LINE.exec(line);
      const verdict = classifyKey(secretName);
      if (value !== null && verdict !== undefined) {
        const [, head = '', quote = '', secret = '', tail = ''] = value;
        if (isSecretValue({ verdict, value: secret, separator: '=', after: '', quoted: quote !== '' })) {
          return `${head}${quote}${marker(verdict.kind)}${quote}${tail}`;
        }
      }
    }

    if (this.#inPublicBlock && (PUBLIC_END.test(line) || KEY_MATERIAL_LINE.exec(line) === null)) this.#inPublicBlock = false;
    const out = redactWith(line, this.#inPublicBlock);
    if (PUBLIC_BEGIN.test(line) && !PUBLIC_END.test(line)) this.#inPublicBlock = true;
    const begin = PEM_BEGIN.exec(line);
    if (begin !== null && !PEM_END.test(line.slice(begin.index))) {
      this.#inPrivateKey = true;
      this.#keyLines = 0;
    }
    const name = NAME_LINE.exec(line);
    if (name !== null && classifyKey(name[1] ?? '') !== undefined) this.#secretName = name[1];
    return out;
  }
}

/**
 * Family 6: personal data, each validated so that ordinary numbers stay. Phone numbers
 * need a `+`, parentheses or separators (bare digit runs are epoch times and snowflake
 * ids); card numbers need an issuer prefix and the Luhn digit; IBANs the mod-97 check;
 * SSNs the assigned ranges.
 *
 * Public IPv4 addresses are redacted: a client's address is personal data (GDPR recital
 * 30, CCPA), and an agent debugging a service rarely needs the exact public address.
 * Private (RFC 1918), loopback, link-local, CGNAT, multicast and reserved addresses stay:
 * they describe infrastructure, identify no one, and are what debugging needs.
 * Documentation ranges (192.0.2.0/24 ...) count as public: they stand in for public
 * addresses in examples. Networks (`x.y.z.0`, `a.b.c.d/nn`) stay: they identify no one.
 */
import { keywords, shape } from '../conditions.js';
import { marker } from '../marker.js';
import type { Match, Rule } from '../rule.js';
import { g } from '../rule.js';
import { isCardNumber, isIban, isPublicIpv4, isSsn } from '../validators.js';

/** File extensions that look like top-level domains in `icon@2x.png`. */
const FILE_EXTENSION = /^(?:png|jpe?g|gif|svg|webp|ico|bmp|tiff?|avif|js|mjs|cjs|ts|tsx|jsx|css|scss|less|map|json|ya?ml|toml|xml|html?|md|txt|log|csv|py|rb|go|rs|java|kt|swift|c|h|cpp|hpp|cs|php|sh|zip|gz|tgz|tar|wasm|pdf|woff2?|ttf|otf|eot|mp[34]|mov|lock|min|d)$/i;
/**
 * Top-level names of private networks (`ubuntu@ip-10-0-0-1.ec2.internal` is a login, not an
 * address) and the names reserved for examples and tests (`.example`, `.test`, `.invalid`),
 * at which no one can be reached.
 */
const LOCAL_TLD = /^(?:local|localhost|localdomain|internal|intranet|lan|home|corp|invalid|cluster|example|test)$/i;

const email: Rule = {
  name: 'email',
  when: [keywords(['@'], { kind: 'email' })],
  // Not right after `//`: `https://user@host` is a URL user, not an address.
  pattern: /(?<![A-Za-z0-9._%+\-]|\/\/)[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){0,8}\.([A-Za-z]{2,24})(?![A-Za-z0-9\-]|\.[A-Za-z0-9])/g,
  replace: (m: Match) => {
    const tld = g(m, 0);
    if (FILE_EXTENSION.test(tld) || LOCAL_TLD.test(tld)) return m.text;
    // `git@github.com:owner/repo.git` and `deploy@host.example.com:/srv` are SSH remotes.
    if (/^:[\w~./\-]/.test(m.input.slice(m.offset + m.text.length, m.offset + m.text.length + 2))) return m.text;
    return marker('email');
  },
};

/** 13 to 19 digits, optionally grouped by single spaces or dashes (`4111 1111 1111 1111`, `3782-822463-10005`). */
const cardNumber: Rule = {
  name: 'card',
  when: [shape('card')],
  // Not glued to a word (`blk_5739119717322549945` is a block id).
  pattern: /(?<![\w.,\-])[2-6]\d{3}(?:[ \-]?\d){9,15}(?!\w|[.,]\d|-\d)/g,
  replace: (m: Match) => {
    // A bare JSON number under a key that does not name a card is a counter or a clock
    // (`"procExitAbsTime" : 3988147252602924`); card numbers in JSON are strings.
    const before = m.input.slice(Math.max(0, m.offset - 48), m.offset);
    const jsonKey = /"([\w.\-]{1,40})"[ \t]*:[ \t]*$/.exec(before)?.[1];
    if (jsonKey !== undefined && !/card|pan|cc|credit|payment|acct|account/i.test(jsonKey)) return m.text;
    // The match is greedy: `4111 1111 1111 1111 12/25` takes the expiry month too, so try
    // the longest prefix that is a card number.
    for (let end = m.text.length; end >= 13; end--) {
      const candidate = m.text.slice(0, end);
      // End on a group boundary: never cut a digit run (a 19-digit id is not a card plus three digits).
      if (!/\d$/.test(candidate) || /^\d/.test(m.text.slice(end))) continue;
      const separators = candidate.replace(/\d/g, '');
      // Grouped numbers use one kind of separator throughout; ungrouped ones are at most
      // 16 digits (longer bare digit runs are ids far more often than 19-digit cards).
      if (separators.length > 0 && !/^(?: +|-+)$/.test(separators)) continue;
      if (separators.length === 0 && candidate.length > 16) continue;
      if (isCardNumber(candidate.replace(/[ \-]/g, ''))) return `${marker('card')}${m.text.slice(end)}`;
    }
    return m.text;
  },
};

/** IBANs written compact or in groups of four (`DE89 3704 0044 0532 0130 00`). */
const iban: Rule = {
  name: 'iban',
  when: [shape('iban')],
  pattern: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g,
  replace: (m: Match) => (isIban(m.text.replace(/ /g, '')) ? marker('iban') : m.text),
};

/**
 * US SSNs with dashes (`123-45-6789`), or with spaces after the word SSN or "social
 * security" (spaced digit groups are otherwise table columns). Bare nine-digit runs are ids.
 */
const ssn: Rule = {
  name: 'ssn',
  when: [shape('ssn')],
  pattern: /(?<![\w.\-:\/])(\d{3})([\- ])(\d{2})\2(\d{4})(?![\w\-]|\.\d|:\d| \d)/g,
  replace: (m: Match) => {
    if (!isSsn(g(m, 0), g(m, 2), g(m, 3))) return m.text;
    if (g(m, 1) === ' ' && !/(?:ssn|social security)[^\n]{0,20}$/i.test(m.input.slice(Math.max(0, m.offset - 40), m.offset))) return m.text;
    return marker('ssn');
  },
};

const digitCount = (s: string): number => s.replace(/\D/g, '').length;

/**
 * International numbers starting with `+`: the country code, then groups separated by
 * single spaces, dots or dashes, optionally one group in parentheses. 8 to 15 digits.
 */
const internationalPhone: Rule = {
  name: 'phone',
  when: [shape('phone')],
  // Groups need a separator between them, so a digit run has one reading and cannot backtrack.
  // Not after `)` or `]`: `)+1099511627776*e[6]` is arithmetic.
  pattern: /(?<![\w+\-.)\]])\+(?:\d{7,15}|\d{1,4}(?:[ .\-]?\(\d{1,5}\))?(?:[ .\-]\d{1,10}){1,6})(?![\w\-]|[.:]\d)/g,
  replace: (m: Match) => {
    const digits = digitCount(m.text);
    if (digits < 8 || digits > 15) return m.text;
    // `+0000` time zones and `+1.5e10` numbers are not phones.
    if (/^\+0/.test(m.text)) return m.text;
    return marker('phone');
  },
};

/**
 * National numbers with parentheses or consistent separators: `(555) 123-4567`,
 * `555-123-4567`, `1-800-555-0199`, `020 7946 0958`, `06 12 34 56 78`.
 */
const nationalPhone: Rule = {
  name: 'phone',
  when: [shape('phone')],
  pattern:
    /(?<![\w+\-.\/:]|\d[ .\-])(?:\(\d{2,5}\)[ .\-]?\d{3,4}[ .\-]\d{3,4}|1([\-. ])\d{3}\1\d{3}\1\d{4}|\d{3}([\-.])\d{3}\2\d{4}|0\d{2,4}[ \-]\d{3,4}[ \-]?\d{3,4}|0[1-9]([ .])\d{2}(?:\3\d{2}){3})(?![\w\-]|[.:,]\d| \d)/g,
  replace: (m: Match) => {
    const digits = digitCount(m.text);
    if (digits < 9 || digits > 13) return m.text;
    // Bytes as Node prints them: `<Buffer 01 02 03 04 05>`.
    if (/<Buffer(?: [0-9a-f]{2})* ?$/.test(m.input.slice(Math.max(0, m.offset - 400), m.offset))) return m.text;
    return marker('phone');
  },
};

/** A dotted quad that is a version: `v1.2.3.4`, `version 1.2.3.4`, `firmware 3.10.8.3`, `Chrome/120.0.1.2`. */
const VERSION_BEFORE =
  /(?:\bv|\b(?:version|ver|release|build|firmware|kernel|driver|bios|rev|revision|oid|update|upgrade|patch|sdk|runtime|engine|android|ios|windows|macos|python|node|java|ruby|php|perl|dotnet|gradle|maven|npm|pip)[ :=]{1,3}|[A-Za-z]\/|@|==|>=|<=|~|\^)$/i;

const publicIpv4: Rule = {
  name: 'ipv4',
  when: [shape('ipv4')],
  pattern: /(?<![\w.\-])(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w\-]|\.\d)/g,
  replace: (m: Match) => {
    const octets = m.groups.slice(0, 4).map(Number);
    if (!isPublicIpv4(octets)) return m.text;
    // A network (`5.5.224.0`, `203.0.113.0/24`) identifies no one.
    if (octets[3] === 0 || /^\/\d/.test(m.input.slice(m.offset + m.text.length, m.offset + m.text.length + 2))) return m.text;
    if (VERSION_BEFORE.test(m.input.slice(Math.max(0, m.offset - 16), m.offset))) return m.text;
    return marker('ipv4');
  },
};

/** Ordered so that longer digit shapes go first: a card number is not read as a phone. */
export const personalDataRules: readonly Rule[] = [email, cardNumber, iban, ssn, internationalPhone, nationalPhone, publicIpv4];

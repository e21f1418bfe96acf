/**
 * Checksums and range checks that turn a digit-shaped match into personal data. Shape
 * alone would redact order numbers, epoch times and snowflake ids; these checks keep the
 * false-positive rate down to the odd lucky number.
 */

import { ibanLength } from './scan.js';

/** Luhn checksum (ISO/IEC 7812) over a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The card network an issuer prefix (IIN) and length belong to, if any. */
export function cardNetwork(digits: string): string | undefined {
  const len = digits.length;
  const p1 = digits.charCodeAt(0) - 48;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (p1 === 4 && (len === 13 || len === 16 || len === 19)) return 'visa';
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && len === 16) return 'mastercard';
  if ((p2 === 34 || p2 === 37) && len === 15) return 'amex';
  if ((p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) && len >= 16) return 'discover';
  if (((p3 >= 300 && p3 <= 305) || p4 === 3095 || p2 === 36 || p2 === 38 || p2 === 39) && len >= 14) return 'diners';
  if (p4 >= 3528 && p4 <= 3589 && len >= 16) return 'jcb';
  if (p4 >= 2200 && p4 <= 2204 && len === 16) return 'mir';
  if (p2 === 62 && len >= 16) return 'unionpay';
  if ((p2 === 50 || (p2 >= 56 && p2 <= 69)) && len >= 13) return 'maestro';
  return undefined;
}

/** Card numbers are 13 to 19 digits with a known issuer prefix and a valid Luhn digit. */
export function isCardNumber(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && cardNetwork(digits) !== undefined && passesLuhn(digits);
}

/** IBAN: known country, the country's length, and the ISO 7064 mod-97 check equals 1. */
export function isIban(compact: string): boolean {
  const iban = compact.toUpperCase();
  const expected = ibanLength(iban.slice(0, 2));
  if (expected === 0 || iban.length !== expected) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const code = rearranged.charCodeAt(i);
    if (code >= 48 && code <= 57) remainder = (remainder * 10 + (code - 48)) % 97;
    else if (code >= 65 && code <= 90) remainder = (remainder * 100 + (code - 55)) % 97;
    else return false;
  }
  return remainder === 1;
}

/** US SSN `AAA-GG-SSSS`: area not 000, 666 or 900-999; group not 00; serial not 0000. */
export function isSsn(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && group !== '00' && serial !== '0000';
}

/**
 * A dotted quad that is routable on the public internet. Private (RFC 1918), loopback,
 * link-local, CGNAT, multicast, reserved, "this network" and broadcast addresses are
 * not: they describe infrastructure and identify no one.
 */
export function isPublicIpv4(octets: readonly number[]): boolean {
  const [a = 0, b = 0] = octets;
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

/** `user:password` inside a Basic credential: decodes to printable text with a colon. */
export function isBasicCredential(base64: string): boolean {
  if (base64.length < 6 || base64.length % 4 === 1) return false;
  const decoded = Buffer.from(base64, 'base64').toString('latin1');
  return decoded.length >= 3 && decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded);
}

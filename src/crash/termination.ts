/** Termination codes: how they are written, and the few whose meaning is worth spelling out. */

import { bigIntOf } from './json-body.js';
import { hex } from './frames.js';

/**
 * Signal numbers and small codes read best in decimal ("Code 11"); the well-known magic
 * numbers (0x8badf00d, 0xdead10cc) only mean something in hex.
 */
export function formatTerminationCode(v: unknown): string | undefined {
  const n = bigIntOf(v);
  if (n === undefined) return typeof v === 'string' && v.length > 0 ? v : undefined;
  return n > 0xffffn || n < 0n ? hex(BigInt.asUintN(64, n)) : n.toString();
}

const KNOWN_CODES: Readonly<Record<string, string>> = {
  '0x8badf00d': 'watchdog: the app took too long to launch, resume or respond',
  '0xdead10cc': 'held a file lock or SQLite database lock while being suspended',
  '0xc00010ff': 'killed by the system because of a thermal event',
};

/** A one-line explanation for a famous termination code, if it is one. */
export function explainTerminationCode(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  const normalized = code.toLowerCase();
  const meaning = KNOWN_CODES[normalized];
  return meaning === undefined ? undefined : `termination code ${normalized}: ${meaning}`;
}

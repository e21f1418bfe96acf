/**
 * Checking options at the edge: a bad value is refused with WISP_BAD_ARGUMENT naming the
 * option, before any input is read. Past the edge, values are trusted.
 */
import { WispError } from './errors.js';

/** `value` if it is an integer in [min, max], `fallback` if it is undefined. */
export function integerOption<F extends number | undefined>(name: string, value: unknown, fallback: F, min: number, max: number): number | F {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** `value` if it is one of `allowed`, `fallback` if it is undefined. */
export function choiceOption<T extends string>(name: string, value: unknown, fallback: T, allowed: readonly T[], why = ''): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${JSON.stringify(value)}${why}`);
  }
  return value as T;
}

export function signalOption(value: unknown): AbortSignal | undefined {
  if (value !== undefined && !(value instanceof AbortSignal)) throw new WispError('WISP_BAD_ARGUMENT', 'signal must be an AbortSignal');
  return value;
}

export function functionOption<F extends (...args: never[]) => unknown>(name: string, value: unknown): F | undefined {
  if (value !== undefined && typeof value !== 'function') throw new WispError('WISP_BAD_ARGUMENT', `${name} must be a function`);
  return value as F | undefined;
}

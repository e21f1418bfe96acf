import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WispError } from '../core/errors.js';

/** `--max-bytes 8M`: a byte count with an optional K, M or G suffix (powers of 1024). */
export function parseByteCount(flag: string, value: string): number {
  const m = /^(\d+)([KMG]i?B?)?$/i.exec(value.trim());
  if (m === null) throw new WispError('WISP_BAD_ARGUMENT', `${flag} takes a byte count such as 8388608 or 8M, got '${value}'`);
  const unit = (m[2] ?? '').charAt(0).toUpperCase();
  const scale = unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1;
  const n = Number(m[1]) * scale;
  if (!Number.isSafeInteger(n) || n < 1) throw new WispError('WISP_BAD_ARGUMENT', `${flag} must be at least 1 byte, got '${value}'`);
  return n;
}

export function parseInteger(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim())) throw new WispError('WISP_BAD_ARGUMENT', `${flag} takes a whole number from ${min} to ${max}, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new WispError('WISP_BAD_ARGUMENT', `${flag} takes a whole number from ${min} to ${max}, got ${n}`);
  return n;
}

/**
 * node:util parseArgs with positionals allowed, its errors (unknown or ambiguous options)
 * turned into one-line WISP_BAD_ARGUMENT errors that end with the command's usage.
 */
type CliOptions = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends CliOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true }>>;

export function parseCommandLine<O extends CliOptions>(args: string[], options: O, usage: string): Parsed<O> {
  try {
    return parseArgs({ args: negativeValuesJoined(args, options), options, allowPositionals: true });
  } catch (err) {
    throw new WispError('WISP_BAD_ARGUMENT', `${(err as Error).message.split('\n')[0]} usage: ${usage}`, { cause: err });
  }
}

/**
 * `--top -1`: parseArgs takes `-1` for an option and calls `--top` ambiguous. A value that
 * starts with a dash and a digit, a dot or `Infinity` is joined to its option (`--top=-1`),
 * so that the option's own check says what is wrong with the number.
 */
function negativeValuesJoined(args: string[], options: CliOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i)];
    const next = args[i + 1];
    const option = arg.startsWith('--') ? options[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-(?:[\d.]|inf)/i.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * Every error wisp reports on purpose carries a stable code. Tests assert the code, not
 * the wording; the CLI maps codes to exit statuses and the MCP server to `isError` texts
 * with a recovery hint.
 */
export type WispErrorCode =
  | 'WISP_BAD_ARGUMENT'
  | 'WISP_FILE_NOT_FOUND'
  | 'WISP_NOT_A_FILE'
  | 'WISP_UNREADABLE'
  | 'WISP_UNAVAILABLE'
  | 'WISP_BINARY_INPUT'
  | 'WISP_BAD_GZIP'
  | 'WISP_EMPTY_INPUT'
  | 'WISP_INPUT_TOO_LARGE'
  | 'WISP_NOT_JSON'
  | 'WISP_TRUNCATED_JSON'
  | 'WISP_CANCELLED'
  | 'WISP_DEADLINE'
  | 'WISP_PATH_NOT_ALLOWED'
  | 'WISP_COMMAND_NOT_ALLOWED'
  | 'WISP_COMMAND_FAILED_TO_START'
  | 'WISP_UNKNOWN_HANDLE'
  | 'WISP_HANDLE_EVICTED'
  | 'WISP_WRITE_FAILED'
  | 'WISP_INTERNAL';

export interface WispErrorOptions {
  /** What the caller can do about it; shown after the message. */
  hint?: string | undefined;
  /** The error this one reports (a file system error, a parser's), kept for whoever debugs it. */
  cause?: unknown;
}

/** Marks WispErrors, so that `instanceof` holds across two copies of wisp in one process. */
const WISP_ERROR = Symbol.for('wisp.error');

export class WispError extends Error {
  readonly code: WispErrorCode;
  /** What the caller can do about it; shown after the message. */
  readonly hint: string | undefined;

  constructor(code: WispErrorCode, message: string, options: WispErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WispError';
    this.code = code;
    this.hint = options.hint;
    Object.defineProperty(this, WISP_ERROR, { value: true });
  }

  /** As undici's errors do: an error made by another copy of this class is one too. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[WISP_ERROR] === true;
  }
}

/** How a cancelled call ends: `condense_log was cancelled`. */
export function cancelledError(what: string): WispError {
  return new WispError('WISP_CANCELLED', `${what} was cancelled`);
}

export function isWispError(err: unknown): err is WispError {
  return err instanceof WispError;
}

/** Bad input and bad arguments exit 2; anything unexpected exits 1 (a bug to report). */
export function exitCodeFor(err: unknown): number {
  return isWispError(err) && err.code !== 'WISP_INTERNAL' ? 2 : 1;
}

/**
 * One native call: runs on koffi's worker threads (never blocking the event loop), with a
 * cancel token the C side polls, and the result copied out of C memory and freed.
 */
import { decode, view } from 'koffi';
import { WispError } from '../core/errors.js';
import { nativeLibrary, Status, type NativeLibrary } from './library.js';
import { UNAVAILABLE } from './unavailable.js';

interface RawResult {
  data: bigint | null;
  len: number | bigint;
  status: number;
  sys_errno: number;
  message: string;
}

export interface NativeResult {
  status: number;
  /** The records, copied out of C memory. */
  data: Buffer;
}

/** Args for the native function, without the cancel token (given as `token` when used). */
type Invoke = (lib: NativeLibrary, token: number) => [fn: NativeLibrary['processes'], args: unknown[]];

/**
 * Calls a native function asynchronously. If `signal` aborts, the token is set and the
 * call returns within one of its polling intervals, rejecting with WISP_CANCELLED.
 */
export async function callNative(what: string, invoke: Invoke, signal?: AbortSignal): Promise<NativeResult> {
  const lib = nativeLibrary();
  if (signal?.aborted) throw cancelled(what);
  const token = lib.cancelNew() as number;
  if (token < 0) throw new WispError('WISP_INTERNAL', `${what}: too many native calls at once`);
  const onAbort = (): void => void lib.cancelSet(token);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const [fn, args] = invoke(lib, token);
    const pointer = await new Promise<bigint | null>((resolve, reject) => {
      fn.async(...args, (err: unknown, res: bigint | null) => (err ? reject(err) : resolve(res)));
    });
    return takeResult(lib, what, pointer);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    lib.cancelRelease(token);
  }
}

/** Copies a wisp_result out and frees it; non-OK statuses become WispErrors. */
export function takeResult(lib: NativeLibrary, what: string, pointer: bigint | null): NativeResult {
  if (pointer === null || pointer === 0n) throw new WispError('WISP_INTERNAL', `${what}: the native library ran out of memory`);
  let raw: RawResult;
  let data: Buffer;
  try {
    raw = decode(pointer, lib.resultType) as RawResult;
    const len = Number(raw.len);
    // Buffer.from(typed array) copies: the C memory is freed right after.
    data = raw.data === null || raw.data === 0n || len === 0 ? Buffer.alloc(0) : Buffer.from(new Uint8Array(view(raw.data, len)));
  } finally {
    lib.resultFree(pointer);
  }
  switch (raw.status) {
    case Status.Ok:
    case Status.End:
      return { status: raw.status, data };
    case Status.Cancelled:
      throw cancelled(what);
    case Status.Unavailable:
      throw new WispError(UNAVAILABLE, `${what}: ${raw.message}`);
    case Status.Argument:
      throw new WispError('WISP_BAD_ARGUMENT', `${what}: ${raw.message}`);
    case Status.System:
      throw new WispError('WISP_UNREADABLE', `${what}: ${raw.message}`);
    default:
      throw new WispError('WISP_INTERNAL', `${what}: ${raw.message || `native status ${raw.status}`}`);
  }
}

function cancelled(what: string): WispError {
  return new WispError('WISP_CANCELLED', `${what}: cancelled`);
}

/**
 * Loads wisp's native library (native/build/libwisp.so or .dylib, built by
 * `node native/build.mjs`) through koffi and declares its C ABI (native/include/wisp.h).
 * Loaded once, on first use: commands that need no native call never load it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { address, load, struct, array, type TypeObject } from 'koffi';
import { WispError } from '../core/errors.js';
import { packageFile } from '../paths.js';
import { UNAVAILABLE } from './unavailable.js';

/** Must equal WISP_ABI_VERSION in native/include/wisp.h. */
export const ABI_VERSION = 7;

export const Status = {
  Ok: 0,
  End: 1,
  Cancelled: 2,
  System: 3,
  Unavailable: 4,
  Argument: 5,
  Memory: 6,
} as const;

/** A declared C function: called directly (sync) or through `async` with a callback. */
export type KoffiFunction = ((...args: unknown[]) => unknown) & { async: (...args: unknown[]) => void };

/** The exported functions; pointers are BigInt in koffi 3. */
export interface NativeLibrary {
  path: string;
  platform: 'linux' | 'macos';
  resultType: TypeObject;
  resultFree: KoffiFunction;
  cancelNew: KoffiFunction;
  cancelSet: KoffiFunction;
  cancelRelease: KoffiFunction;
  processes: KoffiFunction;
  ports: KoffiFunction;
  logNew: KoffiFunction;
  logOpen: KoffiFunction;
  logRead: KoffiFunction;
  logClose: KoffiFunction;
  /** wisp_template_add(buf, len, start, end, state): its state is passed as an address (see template.ts). */
  templateAdd: (buf: Uint8Array, len: number, start: number, end: number, state: number) => number;
  /** wisp_redact_scan(block, buf, len, start, end, collect): the block is passed as an address (see redact/scan.ts). */
  redactScan: (block: number, buf: Uint8Array, len: number, start: number, end: number, collect: number) => number;
  /** wisp_redact_screen_lines(block, buf, len, start, end, out, outLen). */
  redactScreenLines: (block: number, buf: Uint8Array, len: number, start: number, end: number, out: Uint8Array, outLen: number) => number;
  /** wisp_log_header(words, buf, len, start, end, contentStart, fieldsEnd, flags, column, out): see src/log/parse/header-native.ts. */
  logHeader: (words: number, buf: Uint8Array, len: number, start: number, end: number, contentStart: number, fieldsEnd: number, flags: number, column: number, out: number) => number;
  /** wisp_log_header_starts(out, 256): out[c] = 1 where byte c may begin a timestamped header. */
  logHeaderStarts: (out: Uint8Array, len: number) => number;
  logPlainLevel: (words: number, buf: Uint8Array, len: number, start: number, end: number, contentStart: number, from: number, flags: number, column: number) => number;
  logTimestamp: (buf: Uint8Array, len: number, start: number, end: number, pos: number, out: number) => number;
  logStampFrom: (buf: Uint8Array, len: number, start: number, end: number, pos: number) => number;
  logTokenLevels: (words: number, buf: Uint8Array, len: number, start: number, end: number, out: number) => number;
  logTrouble: (words: number, buf: Uint8Array, len: number, start: number, end: number) => number;
  /** wisp_log_chunk(words, buf, len, screen, lines, flags, column, maxLineBytes, arena, arenaWords): see src/log/chunk/native-chunk.ts. */
  logChunk: (words: number, buf: Uint8Array, len: number, screen: Uint8Array, lines: number, flags: number, column: number, maxLineBytes: number, arena: number, arenaWords: number) => number;
  /** wisp_log_chunk_lane(scanBlock, words, buf, len, screen, screenCap, native, flags, column, maxLineBytes, arena, arenaWords), every pointer an address: called async. */
  logChunkLane: KoffiFunction;
}

/** The package's native/build/ library. */
export function libraryPath(): string {
  return fileURLToPath(packageFile(`native/build/${process.platform === 'darwin' ? 'libwisp.dylib' : 'libwisp.so'}`));
}

/**
 * Where a typed array's bytes are, as a number to pass for an `intptr_t`. Only for arrays
 * over an ArrayBuffer of their own: V8 never moves an ArrayBuffer's memory, while a small
 * typed array made from a length may live on the heap, which moves.
 */
export function addressOf(view: ArrayBufferView): number {
  return Number(address(view));
}

let loaded: NativeLibrary | undefined;

export function nativeLibrary(): NativeLibrary {
  if (loaded !== undefined) return loaded;
  if (process.platform !== 'linux' && process.platform !== 'darwin') {
    throw new WispError(UNAVAILABLE, `wisp's native library supports Linux and macOS, not ${process.platform}`);
  }
  const path = libraryPath();
  if (!existsSync(path)) {
    throw new WispError(UNAVAILABLE, `wisp's native library is not built (${path} is missing)`, { hint: 'build it with a C compiler (Debian: apt-get install gcc; macOS: xcode-select --install): node native/build.mjs' });
  }
  let lib: ReturnType<typeof load>;
  try {
    lib = load(path);
  } catch (err) {
    throw new WispError(UNAVAILABLE, `wisp's native library could not be loaded: ${(err as Error).message}`, { hint: 'rebuild it: node native/build.mjs', cause: err });
  }
  const version = lib.func('int32_t wisp_abi_version(void)')() as number;
  if (version !== ABI_VERSION) {
    throw new WispError(UNAVAILABLE, `wisp's native library has ABI ${version}, this wisp needs ${ABI_VERSION}`, { hint: 'rebuild it: node native/build.mjs' });
  }
  const resultType = struct({
    data: 'void *',
    len: 'int64_t',
    status: 'int32_t',
    sys_errno: 'int32_t',
    message: array('char', 240, 'String'),
  });
  const platform = lib.func('const char *wisp_platform(void)')() as string;
  loaded = {
    path,
    platform: platform === 'macos' ? 'macos' : 'linux',
    resultType,
    resultFree: lib.func('void wisp_result_free(void *r)'),
    cancelNew: lib.func('int32_t wisp_cancel_new(void)'),
    cancelSet: lib.func('void wisp_cancel_set(int32_t token)'),
    cancelRelease: lib.func('void wisp_cancel_release(int32_t token)'),
    processes: lib.func('void *wisp_processes(int32_t token, int32_t sample_ms)'),
    ports: lib.func('void *wisp_ports(int32_t token, int32_t flags)'),
    logNew: lib.func('void *wisp_log_new(void)'),
    logOpen: lib.func('void *wisp_log_open(void *log, const char *file, int64_t since_usec, int64_t until_usec, const char *process, const char *subsystem)'),
    logRead: lib.func('void *wisp_log_read(void *log, int32_t token, int32_t max_bytes)'),
    logClose: lib.func('void wisp_log_close(void *log)'),
    // The state is declared as an address, not as int32_t *: koffi turns a number into an
    // intptr_t in half the time it takes to pin a typed array, and this is called once a line.
    templateAdd: lib.func('int32_t wisp_template_add(const uint8_t *buf, int32_t len, int32_t start, int32_t end, intptr_t state)') as NativeLibrary['templateAdd'],
    redactScan: lib.func('int32_t wisp_redact_scan(intptr_t block, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t collect)') as NativeLibrary['redactScan'],
    redactScreenLines: lib.func(
      'int32_t wisp_redact_screen_lines(intptr_t block, const uint8_t *buf, int32_t len, int32_t start, int32_t end, uint8_t *out, int32_t out_len)',
    ) as NativeLibrary['redactScreenLines'],
    logHeader: lib.func(
      'int32_t wisp_log_header(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t content_start, int32_t fields_end, int32_t flags, int32_t column, intptr_t out)',
    ) as NativeLibrary['logHeader'],
    logHeaderStarts: lib.func('int32_t wisp_log_header_starts(uint8_t *out, int32_t len)') as NativeLibrary['logHeaderStarts'],
    logPlainLevel: lib.func(
      'int32_t wisp_log_plain_level(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t content_start, int32_t from, int32_t flags, int32_t column)',
    ) as NativeLibrary['logPlainLevel'],
    logTimestamp: lib.func('int32_t wisp_log_timestamp(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t pos, intptr_t out)') as NativeLibrary['logTimestamp'],
    logStampFrom: lib.func('int32_t wisp_log_stamp_from(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t pos)') as NativeLibrary['logStampFrom'],
    logTokenLevels: lib.func('int32_t wisp_log_token_levels(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, intptr_t out)') as NativeLibrary['logTokenLevels'],
    logTrouble: lib.func('int32_t wisp_log_trouble(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end)') as NativeLibrary['logTrouble'],
    logChunk: lib.func(
      'int32_t wisp_log_chunk(intptr_t words, const uint8_t *buf, int32_t len, const uint8_t *screen, int32_t lines, int32_t flags, int32_t column, int32_t max_line_bytes, intptr_t arena, int32_t arena_words)',
    ) as NativeLibrary['logChunk'],
    logChunkLane: lib.func(
      'int32_t wisp_log_chunk_lane(intptr_t scan_block, intptr_t words, intptr_t buf, int32_t len, intptr_t screen, int32_t screen_cap, int32_t native, int32_t flags, int32_t column, int32_t max_line_bytes, intptr_t arena, int32_t arena_words)',
    ),
  };
  return loaded;
}

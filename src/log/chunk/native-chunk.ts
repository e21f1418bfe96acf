/**
 * The native pass over a chunk (native/src/log_chunk.c): the records that are one header
 * line each, grouped and tallied in C, and the segments of other lines left to
 * condense-chunk.ts. Only where every line of a record shape is read alike in C and here:
 * a timestamped log whose header is the line's first field (no gh run view fields, no
 * compose prefix) and whose record is one line (no level or message on the next line).
 */
import { WispError } from '../../core/errors.js';
import { addressOf, nativeLibrary } from '../../native/library.js';
import type { FormatInfo } from '../model/format.js';
import { headerFlags, levelWordsAddress } from '../parse/header-native.js';
import type { Severity } from '../model/severity.js';
import { MAX_VALUES } from '../model/values.js';

/** The result's layout, as native/include/wisp.h gives it (WISP_CHUNK_*, WISP_SEGMENT_*, WISP_GROUP_*). */
export const CHUNK_HEAD = { lines: 0, records: 1, groups: 2, segments: 3, recordsAt: 4, segmentsAt: 5, groupsAt: 6, wordsNeeded: 7 } as const;
export const RECORD_WORDS = 3;
export const SEGMENT_WORDS = 4;
export const SEGMENT = { firstLine: 0, lines: 1, recordsBefore: 2, start: 3 } as const;
export const GROUP_WORDS = 16;
export const GROUP = {
  severity: 0,
  keyHigh: 1,
  keyLow: 2,
  records: 3,
  firstLine: 4,
  lastLine: 5,
  start: 6,
  end: 7,
  message: 8,
  firstTimeStart: 9,
  firstTimeEnd: 10,
  lastTimeStart: 11,
  lastTimeEnd: 12,
  placeholders: 13,
  tallies: 14,
  talliesAt: 15,
} as const;
/** Words of a placeholder's tally: its count (-1: many), then per value start, end, records, first line. */
export const TALLY_WORDS = 1 + 4 * MAX_VALUES;
const OUT_OF_MEMORY = -6;
/** Words the arena starts with: enough for a chunk of about 1 MiB of short lines. */
const FIRST_ARENA_WORDS = 1 << 20;

/** Whether the native pass reads this format's records as condense-chunk.ts does. */
export function nativePassApplies(info: FormatInfo): boolean {
  return info.format === 'timestamped' && info.leadingTabFields === 0 && info.namePrefix !== true && info.levelOnNextLine !== true && info.messageOnNextLine !== true;
}

/** What the native pass read of one chunk: views into this thread's arena, valid until the next pass. */
export interface NativeChunk {
  lines: number;
  records: number;
  segments: number;
  groups: number;
  /** The arena: read with the offsets below. */
  w: Int32Array;
  recordsAt: number;
  segmentsAt: number;
  groupsAt: number;
}

let arena = new Int32Array(new ArrayBuffer(4 * FIRST_ARENA_WORDS));
let arenaAddress = addressOf(arena);

/** The native pass over `buf` (its lines screened: `screen`, one byte a line). */
export function nativePass(buf: Buffer, info: FormatInfo, screen: Uint8Array, maxLineBytes: number): NativeChunk {
  const lib = nativeLibrary();
  const { flags, column } = headerFlags(info);
  for (;;) {
    const lines = lib.logChunk(levelWordsAddress(), buf, buf.length, screen, screen.length, flags, column, maxLineBytes, arenaAddress, arena.length);
    if (lines === OUT_OF_MEMORY) {
      const needed = arena[CHUNK_HEAD.wordsNeeded]!;
      if (!(needed > arena.length)) throw new WispError('WISP_INTERNAL', 'the native chunk pass asked for no more memory than it had');
      arena = new Int32Array(new ArrayBuffer(4 * needed));
      arenaAddress = addressOf(arena);
      continue;
    }
    if (lines < 0) throw new WispError('WISP_INTERNAL', `the native chunk pass refused a ${buf.length}-byte chunk of ${screen.length} lines`);
    const w = arena;
    return {
      lines,
      records: w[CHUNK_HEAD.records]!,
      segments: w[CHUNK_HEAD.segments]!,
      groups: w[CHUNK_HEAD.groups]!,
      w,
      recordsAt: w[CHUNK_HEAD.recordsAt]!,
      segmentsAt: w[CHUNK_HEAD.segmentsAt]!,
      groupsAt: w[CHUNK_HEAD.groupsAt]!,
    };
  }
}

/** Segment k's word `field` (SEGMENT). */
export const segmentWord = (n: NativeChunk, k: number, field: number): number => n.w[n.segmentsAt + k * SEGMENT_WORDS + field]!;

/** Group g's word `field` (GROUP). */
export const groupWord = (n: NativeChunk, g: number, field: number): number => n.w[n.groupsAt + g * GROUP_WORDS + field]!;

/** Group g's key, as TemplateScanner.key() makes it. */
export const groupKey = (n: NativeChunk, g: number): number => (groupWord(n, g, GROUP.keyHigh) >>> 0) * 2097152 + (groupWord(n, g, GROUP.keyLow) >>> 0);

export const groupSeverity = (n: NativeChunk, g: number): Severity => groupWord(n, g, GROUP.severity) as Severity;

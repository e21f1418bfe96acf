/**
 * The native pass over a chunk (native/src/log_chunk.c): the records that are one header
 * line each, grouped and tallied in C, and the segments of other lines left to
 * condense-chunk.ts. Only where every line of a record shape is read alike in C and here:
 * a timestamped log whose header is the line's first field (no gh run view fields, no
 * compose prefix) and whose record is one line (no level or message on the next line),
 * and log show's rows. Also the lanes that run it beside the calling thread (NativeLanes).
 */
import { WispError } from '../../core/errors.js';
import { addressOf, nativeLibrary, Status } from '../../native/library.js';
import { RULE_SET } from '../../redact/rule-set.js';
import { countLines } from '../../split/line-chunks.js';
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
/** WISP_ERR_MEMORY, negated: the arena was short. */
const OUT_OF_MEMORY = -Status.Memory;
/** Words the arena starts with: enough for a chunk of about 1 MiB of short lines. */
const FIRST_ARENA_WORDS = 1 << 20;

/** Whether the native pass reads this format's records as condense-chunk.ts does. */
export function nativePassApplies(info: FormatInfo): boolean {
  if (info.format === 'logshow' || info.format === 'logshow-compact') return true;
  return info.format === 'timestamped' && info.leadingTabFields === 0 && info.namePrefix !== true && info.levelOnNextLine !== true && info.messageOnNextLine !== true;
}

/** What the native pass read of one chunk: views into an arena, good until the arena's next pass. */
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

/** Memory a native pass writes its result to, grown when a chunk asks for more. */
class Arena {
  w = new Int32Array(new ArrayBuffer(4 * FIRST_ARENA_WORDS));
  address = addressOf(this.w);

  /** After a pass that ran out of room: room for what it asked for. */
  grow(): void {
    const needed = this.w[CHUNK_HEAD.wordsNeeded]!;
    if (!(needed > this.w.length)) throw new WispError('WISP_INTERNAL', 'the native chunk pass asked for no more memory than it had');
    this.w = new Int32Array(new ArrayBuffer(4 * needed));
    this.address = addressOf(this.w);
  }

  result(lines: number): NativeChunk {
    const w = this.w;
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

/** This thread's arena for passes run in it. */
const arena = new Arena();

/** The native pass over `buf` (its lines screened: `screen`, one byte a line), in this thread. */
export function nativePass(buf: Buffer, info: FormatInfo, screen: Uint8Array, maxLineBytes: number): NativeChunk {
  return passInto(arena, buf, info, screen, maxLineBytes);
}

function passInto(into: Arena, buf: Buffer, info: FormatInfo, screen: Uint8Array, maxLineBytes: number): NativeChunk {
  const lib = nativeLibrary();
  const { flags, column } = headerFlags(info);
  for (;;) {
    const lines = lib.logChunk(levelWordsAddress(), buf, buf.length, screen, screen.length, flags, column, maxLineBytes, into.address, into.w.length);
    if (lines === OUT_OF_MEMORY) {
      into.grow();
      continue;
    }
    if (lines < 0) throw new WispError('WISP_INTERNAL', `the native chunk pass refused a ${buf.length}-byte chunk of ${screen.length} lines`);
    return into.result(lines);
  }
}

/** A chunk's screen and, where its format allows, its native pass, run beside the calling thread: what condenseScreened reads. */
export interface LaneResult {
  screen: Uint8Array;
  native: NativeChunk | undefined;
  /** Gives the output back: its screen and arena are then another chunk's. */
  release(): void;
}

/** What a chunk's native work writes: its screen and its arena, the chunk's until its other lines are read. */
interface Output {
  screen: Uint8Array;
  arena: Arena;
}

/**
 * Lanes on which a chunk's native work (the redaction screen, the native pass) runs on a
 * thread of libuv's pool, beside the calling thread, which reads the chunk's other lines
 * meanwhile: at most `count` calls at once, each with a redaction block of its own (its
 * stamps), the rest waiting in turn. A lane is free again as soon as its call returns;
 * the call's output (screen and arena) stays the chunk's until released. No thread has to
 * start or load code for it, as a worker thread does.
 */
export class NativeLanes {
  readonly #blocks: { block: Int32Array; address: number }[] = [];
  readonly #waiting: (() => void)[] = [];
  readonly #outputs: Output[] = [];
  /** Lanes not made yet: a lane's block is made when a chunk first needs one. */
  #unmade: number;

  constructor(count: number) {
    this.#unmade = count;
  }

  /** Screens `buf` (and runs the native pass where `info` allows) on a lane. */
  async run(buf: Buffer, info: FormatInfo, maxLineBytes: number): Promise<LaneResult> {
    if (this.#blocks.length === 0 && this.#unmade > 0) {
      this.#unmade--;
      const block = RULE_SET.scanner.blockCopy();
      this.#blocks.push({ block, address: addressOf(block) });
    }
    while (this.#blocks.length === 0) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    const lane = this.#blocks.pop()!;
    const out = this.#outputs.pop() ?? { screen: new Uint8Array(0), arena: new Arena() };
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.#outputs.push(out);
    };
    try {
      // A chunk of n bytes holds at most n lines; chunks differ a little in size, so room is made for more.
      if (out.screen.length < buf.length) out.screen = new Uint8Array(new ArrayBuffer(Math.max(buf.length + (buf.length >> 3), 2 * out.screen.length)));
      const native = nativePassApplies(info);
      const { flags, column } = headerFlags(info);
      const lib = nativeLibrary();
      let lines: number;
      try {
        // A chunk's buffer is a slot or a Buffer's own memory, never a typed array on V8's heap: its address holds.
        lines = await new Promise((resolve, reject) => {
          lib.logChunkLane.async(lane.address, levelWordsAddress(), addressOf(buf), buf.length, addressOf(out.screen), out.screen.length, native ? 1 : 0, flags, column, maxLineBytes, out.arena.address, out.arena.w.length, (err: unknown, n: number) => (err ? reject(err) : resolve(n)));
        });
      } finally {
        this.#blocks.push(lane);
        this.#waiting.shift()?.();
      }
      // Out of room: the screen is done; the pass runs again here with more.
      if (lines === OUT_OF_MEMORY) {
        lines = countLines(buf);
        const screen = out.screen.subarray(0, lines);
        return { screen, native: passInto(out.arena, buf, info, screen, maxLineBytes), release };
      }
      if (lines < 0) throw new WispError('WISP_INTERNAL', `the native chunk lane refused a ${buf.length}-byte chunk`);
      return { screen: out.screen.subarray(0, lines), native: native ? out.arena.result(lines) : undefined, release };
    } catch (err) {
      release();
      throw err;
    }
  }
}

/** This thread's lanes, by their number: a run's lanes (blocks, screens, arenas) serve the next run too. */
const sharedLanes = new Map<number, NativeLanes>();

/** The `count` lanes this thread shares between runs (a server or a library condenses many logs). */
export function nativeLanes(count: number): NativeLanes {
  let lanes = sharedLanes.get(count);
  if (lanes === undefined) {
    lanes = new NativeLanes(count);
    sharedLanes.set(count, lanes);
  }
  return lanes;
}

/** Segment k's word `field` (SEGMENT). */
export const segmentWord = (n: NativeChunk, k: number, field: number): number => n.w[n.segmentsAt + k * SEGMENT_WORDS + field]!;

/** Group g's word `field` (GROUP). */
export const groupWord = (n: NativeChunk, g: number, field: number): number => n.w[n.groupsAt + g * GROUP_WORDS + field]!;

/** Group g's key, as TemplateScanner.key() makes it. */
export const groupKey = (n: NativeChunk, g: number): number => (groupWord(n, g, GROUP.keyHigh) >>> 0) * 2097152 + (groupWord(n, g, GROUP.keyLow) >>> 0);

export const groupSeverity = (n: NativeChunk, g: number): Severity => groupWord(n, g, GROUP.severity) as Severity;

/**
 * The input's own lines, as read (redacted, terminal colours dropped): its last lines, as
 * `tail` shows them (a failed run ends with its outcome), and a small input whole.
 */
import { ANSI } from '../../core/text.js';
import type { FormatInfo } from '../model/format.js';
import type { InputRead, TailLine } from '../model/result.js';
import { RecordReader } from '../parse/records.js';
import type { ChunkItem } from './log-inputs.js';

/** The last lines shown, as `tail` would show them (as bytes allow: rank/ending.ts); */
export const TAIL_LINES = 10;
/** and the most kept: the ranking shows more of them when they are the input's own ending (rank/ending.ts). */
export const ENDING_LINES = 20;
/** The lines kept: an ending followed by a routine run of the service's records is found before that run (rank/ending.ts). */
export const KEPT_LINES = 250;
const TAIL_BYTES = 32 * 1024;

/** An input this small fits one screen: it is shown as it is, its lines numbered, instead of grouped. */
export const SMALL_INPUT_BYTES = 3 * 1024;

/**
 * Keeps copies of what the result shows of the input as it was: the last TAIL_BYTES of
 * the latest input, and, for a single input, its first SMALL_INPUT_BYTES. Copies, taken
 * before a chunk's buffer is handed to a thread.
 */
export class RawLines {
  #tailInput = -1;
  #tailInfo: FormatInfo | undefined;
  #tail = Buffer.alloc(0);
  readonly #small: { info?: FormatInfo; chunks: Buffer[]; bytes: number } | undefined;

  /** `keepSmall`: whether the input may be shown whole (a single input, all of it read). */
  constructor(keepSmall: boolean) {
    this.#small = keepSmall ? { chunks: [], bytes: 0 } : undefined;
  }

  see(item: ChunkItem): void {
    const chunk = item.chunk;
    const fresh = this.#tailInput !== item.input;
    const take = chunk.subarray(Math.max(0, chunk.length - TAIL_BYTES));
    const kept = fresh || take.length >= TAIL_BYTES ? Buffer.from(take) : Buffer.concat([this.#tail, take]);
    this.#tail = kept.length > TAIL_BYTES ? Buffer.from(kept.subarray(kept.length - TAIL_BYTES)) : kept;
    this.#tailInput = item.input;
    this.#tailInfo = item.info;
    const small = this.#small;
    if (small !== undefined && small.bytes <= SMALL_INPUT_BYTES) {
      small.info = item.info;
      small.bytes += chunk.length;
      if (small.bytes <= SMALL_INPUT_BYTES) small.chunks.push(Buffer.from(chunk));
    }
  }

  /** The latest input's last KEPT_LINES lines, as TAIL_BYTES allow, trailing blank lines left out, with their line numbers. */
  tail(inputs: InputRead[]): TailLine[] | undefined {
    if (this.#tailInfo === undefined) return undefined;
    const input = inputs[this.#tailInput]!;
    const lines = wholeLines(this.#tail, this.#tailInfo);
    let end = lines.length;
    // The kept bytes may start inside a line: that piece is no line to show.
    const first = this.#tail.length >= TAIL_BYTES ? 1 : 0;
    while (end > first && lines[end - 1]!.trim() === '') end--;
    const start = Math.max(first, end - KEPT_LINES);
    // Line numbers count from the end of the input: its last line is the one before the first of the next.
    const lastLine = input.firstLine + input.lines - 1;
    // Every piece is a line (wholeLines makes none after the last newline), blank or not.
    return lines.slice(start, end).map((text, i) => ({ line: lastLine - (lines.length - 1 - (start + i)), text }));
  }

  /** A small input's lines, when it is one to show whole: JSON lines say more as groups (their messages). */
  whole(): string[] | undefined {
    const small = this.#small;
    if (small?.info === undefined || small.bytes > SMALL_INPUT_BYTES || small.info.format === 'json' || small.info.format === 'logshow-json') return undefined;
    return wholeLines(Buffer.concat(small.chunks), small.info);
  }
}

/** The lines of `bytes` as they are read: redacted, terminal colours dropped. */
function wholeLines(bytes: Buffer, info: FormatInfo): string[] {
  const reader = new RecordReader(info);
  const out: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    let nl = bytes.indexOf(10, start);
    if (nl < 0) nl = bytes.length;
    const end = nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
    out.push(reader.textOf(bytes, start, end).replace(ANSI, ''));
    start = nl + 1;
  }
  return out;
}

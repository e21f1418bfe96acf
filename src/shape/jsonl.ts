/**
 * JSON Lines: chunks of whole lines shaped in process or across a worker pool, their
 * partial shapes merged strictly in input order, and the first line that is not JSON
 * reported with its global line number (or as a truncated last line).
 */
import { cancelledError, WispError } from '../core/errors.js';
import { dispatchInOrder } from '../pipeline/dispatch.js';
import { poolFor } from '../pipeline/worker-pool.js';
import type { Fill } from './byte-source.js';
import { shapeChunkOn, type ChunkTask } from './chunk-task.js';
import { lineTasks } from './line-slots.js';
import { Slots } from '../split/slots.js';
import { shapeLines, type LinesShape } from './lines.js';
import { mergeInto } from './merge.js';
import { newNode, type ShapeNode } from './node.js';
import { throwIfAborted, type ResolvedOptions } from './options.js';
import { describeOpen, diagnose } from './scan.js';
import { formatCount } from './text.js';

export interface LinesOutcome {
  root: ShapeNode;
  /** Lines holding a value. */
  records: number;
  values: number;
}

/** Merges chunk results in input order and tracks line numbers and the first bad line. */
class LinesMerger {
  readonly root = newNode(Infinity, Infinity);
  records = 0;
  values = 0;
  private linesBefore = 0;
  /** A bad line that ends in the middle of a value: truncated if nothing follows it. */
  private pending: { line: number; text: string; whole: boolean; message: string } | undefined;

  /** Takes the next chunk's result; throws for a bad line that is not a truncated last one. */
  add(r: LinesShape): void {
    if (this.pending !== undefined) {
      // Anything after a line that looked cut off makes it an ordinary bad line.
      if (r.values > 0 || r.bad !== undefined) throw badLine(this.pending, false);
      return;
    }
    if (r.bad !== undefined) {
      const line = this.linesBefore + r.bad.line + 1;
      const found = { ...r.bad, line };
      if (r.bad.restBlank && r.bad.whole && diagnose(r.bad.text).kind === 'truncated') {
        this.pending = found;
        return;
      }
      throw badLine(found, false);
    }
    mergeInto(this.root, r.root);
    this.records += r.values;
    this.values += r.walked;
    this.linesBefore += r.lines;
  }

  finish(): LinesOutcome {
    if (this.pending !== undefined) throw badLine(this.pending, true);
    return { root: this.root, records: this.records, values: this.values };
  }
}

/** The error for bad line `line` (1-based): truncated when it is the last and stops inside a value. */
function badLine({ line, text, whole, message }: { line: number; text: string; whole: boolean; message: string }, isLast: boolean): WispError {
  // A line kept only in part for diagnosis stops inside a value by construction: use V8's word.
  const d = whole ? diagnose(text) : ({ kind: 'valid' } as const);
  if (isLast && d.kind === 'truncated') {
    return new WispError(
      'WISP_TRUNCATED_JSON',
      `JSON Lines: the last line (${formatCount(line)}) looks truncated: it ends ${describeOpen(d)}`,
      { hint: 'input cut to fit is refused; pass the whole file' },
    );
  }
  let why: string;
  switch (d.kind) {
    case 'syntax':
      why = `${d.reason} at column ${formatCount(d.offset + 1)}`;
      break;
    case 'trailing':
      why = `more text after a complete value at column ${formatCount(d.offset + 1)}`;
      break;
    case 'truncated':
      why = `the line ends ${describeOpen(d)}`;
      break;
    default:
      why = message;
  }
  return new WispError(
    'WISP_NOT_JSON',
    `JSON Lines: line ${formatCount(line)} is not JSON (${why})${line > 1 ? `; lines 1-${formatCount(line - 1)} parse` : ''}`,
    { hint: 'JSON Lines needs one complete JSON value on every non-blank line' },
  );
}

/** Shape JSON Lines from held bytes, in process. */
export function shapeHeldLinesInProcess(bytes: Buffer, o: ResolvedOptions): LinesOutcome {
  throwIfAborted(o.signal);
  const merger = new LinesMerger();
  // The whole input as one chunk starting at line 0.
  merger.add(shapeLines(bytes, 0));
  return merger.finish();
}

/** Chunks handed to threads at most, per thread: enough to keep each busy while the oldest is merged. */
const IN_FLIGHT_PER_THREAD = 2;

/**
 * Shape JSON Lines chunks in input order, on `threads` threads (the lent pool, or a pool
 * of this call's own), in process when there are none or the input is a single chunk.
 */
export async function shapeLineChunks(
  fill: Fill,
  chunkBytes: number,
  o: ResolvedOptions,
  threads: number,
): Promise<LinesOutcome> {
  const merger = new LinesMerger();
  const slots = new Slots(chunkBytes);
  const iterator = lineTasks(fill, slots);
  const first = await iterator.next();
  if (first.done) return merger.finish();
  const second = await iterator.next();
  async function* all(): AsyncGenerator<ChunkTask> {
    yield first.value as ChunkTask;
    if (second.done) return;
    yield second.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  const { pool, close } = await poolFor(second.done ? 0 : threads, o.pool);
  try {
    await dispatchInOrder<ChunkTask, LinesShape>(all(), {
      start: (task) => shapeChunkOn(pool, task),
      take: (task, shape) => {
        merger.add(shape!);
        slots.release(task.buffer);
      },
      limit: pool === undefined ? 1 : IN_FLIGHT_PER_THREAD * pool.threads,
      signal: o.signal,
      cancelled: () => cancelledError('json_shape'),
    });
  } finally {
    await close();
  }
  return merger.finish();
}

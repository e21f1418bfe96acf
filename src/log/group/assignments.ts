import { createWriteStream } from 'node:fs';
import { WispError } from '../../core/errors.js';
import type { LogSource } from '../../input/sources.js';
import { ProgressMeter } from '../../pipeline/progress.js';
import { DEFAULT_CHUNK_BYTES, slotBytesFor } from '../../split/line-chunks.js';
import { sharedSlots } from '../../split/slots.js';
import { condenseChunk } from '../chunk/condense-chunk.js';
import type { LogState } from '../model/state.js';
import { readFacts, readLogInputs } from '../read/log-inputs.js';

/**
 * Each line's group (1-based line numbers as in the result; a continuation line gets its
 * record's group; `frame` for lines in no record, log show's header and footer), in line
 * order, in batches.
 *
 * A second pass over the inputs through the same reader and condenser, seeing each record
 * as it joins its group: the merged state holds no per-line data (it stays small however
 * long the log). Group ids are the groups' order of first appearance; `groupOf` points
 * several keys at one group (word-variable merging). Inputs the first pass skipped are
 * skipped.
 */
export async function* assignLines(sources: LogSource[], state: LogState, groupOf: (key: string) => string = (key) => key): AsyncGenerator<string> {
  const ids = new Map<string, number>();
  for (const key of state.merged.groups.keys()) {
    const rep = groupOf(key);
    if (!ids.has(rep)) ids.set(rep, ids.size + 1);
  }
  const idOf = (key: string): string => String(ids.get(groupOf(key)) ?? 'overflow');
  const skipped = new Set(state.read.skippedInputs.map((s) => s.name));
  const read = sources.filter((s) => !skipped.has(s.name));
  const slots = sharedSlots(slotBytesFor(DEFAULT_CHUNK_BYTES));
  const items = readLogInputs(read, undefined, readFacts(read), new ProgressMeter(undefined, undefined, read.length), {
    chunkBytes: DEFAULT_CHUNK_BYTES,
    slots,
    signal: undefined,
    tap: undefined,
    skipBad: false,
    crashes: read.length > 1 ? [] : undefined,
  });
  let base = 0;
  for await (const item of items) {
    let batch = '';
    if (item.kind === 'crash') {
      for (let k = 1; k <= item.lines; k++) batch += `${base + k},frame\n`;
      base += item.lines;
    }
    if (item.kind !== 'chunk') {
      if (batch !== '') yield batch;
      continue;
    }
    let next = 1;
    const onRecord = (first: number, lines: number, key: string): void => {
      for (; next < first; next++) batch += `${base + next},frame\n`;
      const id = idOf(key);
      for (let k = 0; k < lines; k++) batch += `${base + first + k},${id}\n`;
      next = first + lines;
    };
    const partial = condenseChunk(item.chunk, item.info, { onRecord });
    slots.release(item.chunk.buffer);
    for (; next <= partial.lines; next++) batch += `${base + next},frame\n`;
    base += partial.lines;
    yield batch;
  }
}

/** Writes `LineId,GroupId` for every line of the inputs (see assignLines), for export and for scoring. */
export async function writeAssignments(sources: LogSource[], state: LogState, path: string, groupOf?: (key: string) => string): Promise<void> {
  const out = createWriteStream(path);
  const failed = new Promise<never>((_, reject) =>
    out.on('error', (err) => reject(new WispError('WISP_UNREADABLE', `cannot write ${path}: ${err.message}`, { cause: err }))),
  );
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  await write('LineId,GroupId\n');
  for await (const batch of assignLines(sources, state, groupOf)) await write(batch);
  await Promise.race([new Promise<void>((r) => out.end(() => r())), failed]);
}

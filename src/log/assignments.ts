import { createWriteStream } from 'node:fs';
import { WispError } from '../core/errors.js';
import type { LogSource } from '../input/sources.js';
import { lineChunks } from '../split/line-chunks.js';
import { condenseChunk } from './chunk/condense-chunk.js';
import type { LogState } from './condense-log.js';
import { detectFormat, withFormat } from './read/detect.js';
import type { FormatInfo } from './model/format.js';
import { recordChunks } from './read/record-chunks.js';

/**
 * Writes `LineId,GroupId` for every line of the inputs (1-based line numbers as in the
 * result; a continuation line gets its record's group), for export and for scoring.
 *
 * A second pass over the inputs through the same chunking and condenser, seeing each
 * record as it joins its group: the merged state holds no per-line data (it stays small
 * however long the log). Group ids are the groups' order of first appearance; `groupOf`
 * lets a later stage (word-variable merging) point several keys at one group. Lines in no
 * record (log show's header and footer) get `frame`.
 */
export async function writeAssignments(
  sources: LogSource[],
  state: LogState,
  path: string,
  groupOf: (key: string) => string = (key) => key,
): Promise<void> {
  const ids = new Map<string, number>();
  for (const key of state.merger.groups.keys()) {
    const rep = groupOf(key);
    if (!ids.has(rep)) ids.set(rep, ids.size + 1);
  }
  const idOf = (key: string): string => String(ids.get(groupOf(key)) ?? 'overflow');
  const out = createWriteStream(path);
  const failed = new Promise<never>((_, reject) =>
    out.on('error', (err) => reject(new WispError('WISP_UNREADABLE', `cannot write ${path}: ${err.message}`, { cause: err }))),
  );
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  await write('LineId,GroupId\n');
  let base = 0;
  const skipped = new Set(state.read.skippedInputs.map((s) => s.name));
  const decide = (head: Buffer): FormatInfo => detectFormat(new TextDecoder().decode(head));
  for (const source of sources) {
    if (skipped.has(source.name)) continue;
    const opened = await source.open();
    for await (const { info, chunk } of recordChunks(withFormat(lineChunks(opened.chunks), decide), { cutRecords: 0 })) {
      let batch = '';
      let next = 1;
      const partial = condenseChunk(chunk, info, (first, lines, key) => {
        for (; next < first; next++) batch += `${base + next},frame\n`;
        const id = idOf(key);
        for (let k = 0; k < lines; k++) batch += `${base + first + k},${id}\n`;
        next = first + lines;
      });
      for (; next <= partial.lines; next++) batch += `${base + next},frame\n`;
      base += partial.lines;
      await write(batch);
    }
  }
  await Promise.race([new Promise<void>((r) => out.end(() => r())), failed]);
}

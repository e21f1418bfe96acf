import { createWriteStream } from 'node:fs';
import { WispError } from '../errors.js';
import type { LogSource } from '../source/log-source.js';
import { lineChunks } from '../split/line-chunks.js';
import type { LogState } from './condense-log.js';
import { detectFormat, withFormat } from './detect.js';
import type { FormatInfo } from './format.js';
import { LineKind, LineParser } from './line-parser.js';

const NEWLINE = 10;
const CR = 13;

/**
 * Writes `LineId,GroupId` for every line of the inputs (1-based line numbers as in the
 * result; a continuation line gets its record's group), for export and for scoring.
 *
 * A second pass over the inputs with the same parser: the merged state holds no per-line
 * data (it stays small however long the log), so the lines are read again and each one's
 * key looked up. Group ids are the groups' order of first appearance; `groupOf` lets a
 * later stage (word-variable merging) point several keys at one group.
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
    out.on('error', (err) => reject(new WispError('WISP_UNREADABLE', `cannot write ${path}: ${err.message}`))),
  );
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  await write('LineId,GroupId\n');
  let lineNo = 0;
  const skipped = new Set(state.read.skippedInputs.map((s) => s.name));
  for (const source of sources) {
    if (skipped.has(source.name)) continue;
    const opened = await source.open();
    let parser: LineParser | undefined;
    let current = '';
    let batch = '';
    const decide = (head: Buffer): FormatInfo => detectFormat(new TextDecoder().decode(head));
    for await (const { info, chunk: buf } of withFormat(lineChunks(opened.chunks), decide)) {
      parser ??= new LineParser(info);
      let start = 0;
      while (start < buf.length) {
        let nl = buf.indexOf(NEWLINE, start);
        if (nl < 0) nl = buf.length;
        const end = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
        const s = start;
        start = nl + 1;
        lineNo++;
        parser.parse(buf, s, end);
        let id: string;
        if (parser.kind === LineKind.Skip) id = 'frame';
        else if (parser.kind === LineKind.Head) id = current = idOf(`${parser.severity}:${parser.scanner.key()}`);
        else if (current !== '') id = current;
        else {
          parser.parseAlone(buf, s, end);
          id = idOf(`${parser.severity}:${parser.scanner.key()}`);
        }
        batch += `${lineNo},${id}\n`;
      }
      if (batch.length > 1 << 20) {
        await write(batch);
        batch = '';
      }
    }
    await write(batch);
  }
  await Promise.race([new Promise<void>((r) => out.end(() => r())), failed]);
}

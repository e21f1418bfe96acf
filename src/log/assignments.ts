import { createWriteStream } from 'node:fs';
import { WispError } from '../errors.js';
import type { LogSource } from '../source/log-source.js';
import { lineChunks } from '../split/line-chunks.js';
import type { LogState } from './condense-log.js';
import { DETECT_BYTES, detectFormat } from './detect.js';
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
    const head: Buffer[] = [];
    let headBytes = 0;
    let current = '';
    let batch = '';
    const condense = (buf: Buffer): void => {
      let start = 0;
      while (start < buf.length) {
        let nl = buf.indexOf(NEWLINE, start);
        if (nl < 0) nl = buf.length;
        const end = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
        const s = start;
        start = nl + 1;
        lineNo++;
        parser!.parse(buf, s, end);
        let id: string;
        if (parser!.kind === LineKind.Skip) id = 'frame';
        else if (parser!.kind === LineKind.Head) id = current = idOf(`${parser!.severity}:${parser!.scanner.key()}`);
        else if (current !== '') id = current;
        else {
          parser!.parseAlone(buf, s, end);
          id = idOf(`${parser!.severity}:${parser!.scanner.key()}`);
        }
        batch += `${lineNo},${id}\n`;
      }
    };
    const begin = (): void => {
      const bytes = Buffer.concat(head).subarray(0, DETECT_BYTES);
      const info: FormatInfo = detectFormat(new TextDecoder().decode(bytes));
      parser = new LineParser(info);
      for (const c of head.splice(0)) condense(c);
    };
    for await (const chunk of lineChunks(opened.chunks)) {
      if (parser === undefined) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= DETECT_BYTES) begin();
      } else condense(chunk);
      if (batch.length > 1 << 20) {
        await write(batch);
        batch = '';
      }
    }
    if (parser === undefined && head.length > 0) begin();
    await write(batch);
  }
  await Promise.race([new Promise<void>((r) => out.end(() => r())), failed]);
}

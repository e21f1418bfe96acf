import type { FormatInfo } from './format.js';
import { LineKind, newParsedLine, parseLine } from './line-parser.js';
import {
  EXAMPLE_CONTINUATION_LINES,
  MAX_CONTINUATION_CHARS,
  MAX_EXAMPLE_CHARS,
  type GroupStat,
  type LogPartial,
} from './partial.js';
import { MAX_LINE_BYTES } from '../split/line-chunks.js';
import { fromWords } from './severity.js';
import { templateOf } from './template.js';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Condenses one chunk of whole lines into a partial result. Pure: the same text and format
 * give the same partial in a worker or in the main thread.
 */
export function condenseChunk(text: string, info: FormatInfo): LogPartial {
  const groups = new Map<string, GroupStat>();
  const parsed = newParsedLine();
  const lead: LogPartial['lead'] = { lines: 0, lastLine: 0, texts: [], standalone: [] };
  const standalone = new Map<string, GroupStat>();
  let current: GroupStat | undefined;
  let currentIsExample = false;
  let lineNo = 0;
  let skipped = 0;
  let cut = 0;

  let start = 0;
  const length = text.length;
  // A chunk ends with a newline unless it is the input's last line.
  while (start < length) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = length;
    let end = nl;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const line = text.slice(start, end);
    start = nl + 1;
    lineNo++;
    // A UTF-16 unit is at most 3 UTF-8 bytes: only long lines need the exact count.
    if (line.length * 3 >= MAX_LINE_BYTES && Buffer.byteLength(line) >= MAX_LINE_BYTES) cut++;

    parseLine(line, info, parsed);
    if (parsed.kind === LineKind.Skip) {
      skipped++;
      continue;
    }
    if (parsed.kind === LineKind.Continuation) {
      if (current !== undefined) {
        current.lines++;
        current.lastLine = lineNo;
        if (currentIsExample && current.exampleMore.length < EXAMPLE_CONTINUATION_LINES) {
          current.exampleMore.push(clip(line, MAX_CONTINUATION_CHARS));
        }
      } else {
        lead.lines++;
        lead.lastLine = lineNo;
        if (lead.texts.length < EXAMPLE_CONTINUATION_LINES) lead.texts.push(clip(line, MAX_CONTINUATION_CHARS));
        addRecord(standalone, fromWords(line), templateOf(line), '', line, lineNo);
      }
      continue;
    }
    current = addRecord(groups, parsed.severity, parsed.template, parsed.time, line, lineNo);
    currentIsExample = current.records === 1;
  }
  lead.standalone = [...standalone.values()];
  return {
    lines: lineNo,
    skipped,
    cut,
    lead,
    groups: [...groups.values()],
    last: current === undefined ? null : { key: current.key, exampleRecord: currentIsExample },
  };
}

function addRecord(
  groups: Map<string, GroupStat>,
  severity: GroupStat['severity'],
  template: string,
  time: string,
  line: string,
  lineNo: number,
): GroupStat {
  // A bare hex id is all digits now and then (a 7-digit short sha, 4% of the time): the
  // key treats <HEX> and <NUM> alike so that such a line does not split off a group.
  const key = severity + (template.includes('<HEX>') ? template.replaceAll('<HEX>', '<NUM>') : template);
  const found = groups.get(key);
  if (found !== undefined) {
    found.records++;
    found.lines++;
    found.lastLine = lineNo;
    found.lastTime = time;
    return found;
  }
  const g: GroupStat = {
    key,
    template,
    severity,
    records: 1,
    lines: 1,
    firstLine: lineNo,
    lastLine: lineNo,
    firstTime: time,
    lastTime: time,
    example: clip(line, MAX_EXAMPLE_CHARS),
    exampleMore: [],
  };
  groups.set(key, g);
  return g;
}

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
import { fromWords, type Severity } from './severity.js';
import { templateHadHex, templateOf } from './template.js';
import { SEVERITY_COUNT } from './severity.js';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Condenses one chunk of whole lines into a partial result. Pure: the same text and format
 * give the same partial in a worker or in the main thread.
 */
export function condenseChunk(text: string, info: FormatInfo): LogPartial {
  const groups = new GroupTable();
  const parsed = newParsedLine();
  const lead: LogPartial['lead'] = { lines: 0, lastLine: 0, texts: [], standalone: [] };
  const standalone = new GroupTable();
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
        const template = templateOf(line);
        standalone.add(fromWords(line), template, templateHadHex(), '', line, lineNo);
      }
      continue;
    }
    current = groups.add(parsed.severity, parsed.template, templateHadHex(), parsed.time, line, lineNo);
    currentIsExample = current.records === 1;
  }
  lead.standalone = standalone.ordered;
  return {
    lines: lineNo,
    skipped,
    cut,
    lead,
    groups: groups.ordered,
    last: current === undefined ? null : { key: current.key, exampleRecord: currentIsExample },
  };
}

/**
 * Groups by severity and template. One map per severity, so that the key is the template
 * string itself: no per-line concatenation to hash.
 */
class GroupTable {
  readonly ordered: GroupStat[] = [];
  readonly #bySeverity: Map<string, GroupStat>[] = Array.from({ length: SEVERITY_COUNT }, () => new Map());

  add(severity: Severity, template: string, hasHex: boolean, time: string, line: string, lineNo: number): GroupStat {
    // A bare hex id is all digits now and then (a 7-digit short sha, 4% of the time): the
    // key treats <HEX> and <NUM> alike so that such a line does not split off a group.
    const keyTemplate = hasHex ? template.replaceAll('<HEX>', '<NUM>') : template;
    const map = this.#bySeverity[severity]!;
    const found = map.get(keyTemplate);
    if (found !== undefined) {
      found.records++;
      found.lines++;
      found.lastLine = lineNo;
      found.lastTime = time;
      return found;
    }
    const g: GroupStat = {
      key: severity + keyTemplate,
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
    map.set(keyTemplate, g);
    this.ordered.push(g);
    return g;
  }
}

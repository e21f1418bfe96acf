/**
 * The outline as text (header, entries, footer that says what was read and left out) and
 * as a JSON tree of the same entries. Output is a pure function of the merged shape and
 * the limits, so it is byte-identical however the input was chunked.
 */
import { ENUM_RULE, FORMAT_RULE } from './formats.js';
import type { NodeFacts, TypeName } from './facts.js';
import { MAP_MAX_KEYS, MAP_MIN_ID_KEYS, MAX_DEPTH, type ShapeNode } from './node.js';
import {
  MAX_SHOWN_DEPTH,
  allocate,
  countEntries,
  hasKids,
  kidsAreKeys,
  markerText,
  notShownText,
  rootEntry,
  shortPath,
  type Entry,
} from './outline.js';
import { formatCount, plural } from './text.js';

export const MAP_RULE = `map = an object with more than ${MAP_MAX_KEYS} distinct keys, or ${MAP_MIN_ID_KEYS}+ keys that look like data (digits, uuid, hex id, or containing / \\ : @ or a space), outlined as one entry for all its values`;

export interface ShapeSource {
  kind: 'json' | 'jsonl';
  /** Bytes of input read (all of it: input that does not fit is refused, not cut). */
  bytes: number;
  /** Values outlined (every value, nested ones included, down to the depth cap). */
  values: number;
  /** JSON Lines only: lines holding a value. */
  records?: number;
  /** Whether the input was streamed rather than held in memory. */
  streamed: boolean;
}

export interface RenderLimits {
  maxLines: number;
  maxOutputBytes: number;
}

/** One node of the --json tree: the facts of an outline entry and its shown children. */
export interface ShapeTreeNode extends NodeFacts {
  key?: string;
  path: string;
  present?: number;
  of?: number;
  /** Values beyond the first for this key within one object (a repeated key), all counted. */
  repeated?: number;
  children?: ShapeTreeNode[];
  /** Children that exist but did not fit the line cap. */
  omittedChildren?: number;
  /** Path the children sit under (differs from path where arrays or maps are flattened). */
  childrenUnder?: string;
}

export interface ShapeTree {
  kind: 'json' | 'jsonl';
  summary: string;
  read: { bytes: number; values: number; records?: number; streamed: boolean };
  shown: { entries: number; total: number };
  root: ShapeTreeNode;
  notes: string[];
  rules: string[];
}

export interface ShapeReport {
  /** The outline as text, ending in a newline. */
  text: string;
  /** The same outline as a tree. */
  tree: ShapeTree;
}

export function renderShape(root: ShapeNode, source: ShapeSource, limits: RenderLimits): ShapeReport {
  const total = countEntries(root);
  const unexpanded = countUnexpanded(root);
  // The footer's size depends on what was shown (its rules), so lay out with a guess at
  // it and, if the whole comes out over the cap, again with that much less body.
  let reserveLines = 0;
  let reserveBytes = 0;
  for (let attempt = 0; ; attempt++) {
    const report = layOut(root, source, limits, total, unexpanded, reserveLines, reserveBytes);
    const lines = report.text.split('\n').length - 1;
    const bytes = Buffer.byteLength(report.text);
    if ((lines <= limits.maxLines && bytes <= limits.maxOutputBytes) || attempt === 3) return report;
    reserveLines += Math.max(0, lines - limits.maxLines);
    reserveBytes += Math.max(0, bytes - limits.maxOutputBytes);
  }
}

function layOut(
  root: ShapeNode,
  source: ShapeSource,
  limits: RenderLimits,
  total: number,
  unexpanded: number,
  reserveLines: number,
  reserveBytes: number,
): ShapeReport {
  const top = rootEntry(root);
  const summary = summaryOf(top.facts, source);
  const header = `${summary} (${source.kind === 'json' ? 'JSON, ' : ''}${plural(source.bytes, 'byte')}${source.streamed ? ', streamed' : ''})`;
  // A root with no child lines (a scalar, an array of scalars or of arrays) or of several
  // types gets its own description line, which says more than the summary.
  const rootLine = !hasKids(root) || top.facts.types.length > 1 ? `  $: ${top.text}` : undefined;
  const notes: string[] = [];
  if (unexpanded > 0) notes.push(`nesting deeper than ${MAX_DEPTH} levels: ${plural(unexpanded, 'container')} counted, not outlined`);
  const fixed = [header, ...(rootLine === undefined ? [] : [rootLine]), ...notes];
  const fixedBytes = fixed.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0) + READ_LINE_BYTES;
  const allocation = allocate(
    top,
    Math.max(0, limits.maxLines - fixed.length - 1 - reserveLines),
    Math.max(0, limits.maxOutputBytes - fixedBytes - reserveBytes),
  );
  if (allocation.depthCut) notes.unshift(`entries deeper than ${MAX_SHOWN_DEPTH} levels are not shown (counted in "not shown")`);

  const lines: string[] = [header];
  if (rootLine !== undefined) lines.push(rootLine);
  renderEntries(top, lines);
  const rules = rulesUsed(top);
  const readLine =
    `read all ${plural(source.bytes, 'byte')}: ${source.records !== undefined ? `${plural(source.records, 'line')}, ` : ''}${plural(source.values, 'value')}; ` +
    (total === 0
      ? 'shown in full'
      : allocation.shownEntries === total
      ? `shown all ${formatCount(total)} ${total === 1 ? 'entry' : 'entries'}`
      : `shown ${formatCount(allocation.shownEntries)} of ${formatCount(total)} entries (the rest are counted in "more" and "not shown" above)`);
  lines.push(readLine, ...notes, ...rules);

  const tree: ShapeTree = {
    kind: source.kind,
    summary,
    read: { bytes: source.bytes, values: source.values, ...(source.records !== undefined ? { records: source.records } : {}), streamed: source.streamed },
    shown: { entries: allocation.shownEntries, total },
    root: treeOf(top),
    notes,
    rules,
  };
  return { text: `${lines.join('\n')}\n`, tree };
}

/** Room for the "read all ..." line. */
const READ_LINE_BYTES = 160;

function renderEntries(root: Entry, out: string[]): void {
  // Iterative pre-order; a stack item is an entry to print or a marker line to print.
  const stack: ({ entry: Entry; depth: number } | { marker: string })[] = [];
  const pushKids = (e: Entry, depth: number): void => {
    const kids = e.kids ?? [];
    if (e.shownKids < kids.length && e.shownKids > 0) {
      stack.push({ marker: `${' '.repeat(2 * depth)}${markerText(kids.length - e.shownKids, kidsAreKeys(kids), e.under)}` });
    }
    for (let i = e.shownKids - 1; i >= 0; i--) stack.push({ entry: kids[i] as Entry, depth });
  };
  pushKids(root, 1);
  while (stack.length > 0) {
    const item = stack.pop() as { entry: Entry; depth: number } | { marker: string };
    if ('marker' in item) {
      out.push(item.marker);
      continue;
    }
    const { entry, depth } = item;
    const kids = entry.kids ?? [];
    const note = kids.length > 0 && entry.shownKids === 0 ? notShownText(kids.length, kidsAreKeys(kids)) : '';
    out.push(`${' '.repeat(2 * (depth - 1) + 2)}${entry.text}${note}`);
    pushKids(entry, depth + 1);
  }
}

function treeOf(root: Entry): ShapeTreeNode {
  const nodeOf = (e: Entry): ShapeTreeNode => {
    return {
      ...(e.key !== undefined ? { key: e.key } : {}),
      path: shortPath(e.path),
      ...(e.present !== undefined ? { present: e.present, of: e.of } : {}),
      ...(e.repeated !== undefined ? { repeated: e.repeated } : {}),
      ...e.facts,
    };
  };
  const rootNode = nodeOf(root);
  // Iterative so a deep outline cannot overflow the stack.
  const stack: { entry: Entry; node: ShapeTreeNode }[] = [{ entry: root, node: rootNode }];
  while (stack.length > 0) {
    const { entry, node } = stack.pop() as { entry: Entry; node: ShapeTreeNode };
    const kids = entry.kids ?? [];
    if (kids.length === 0) continue;
    node.childrenUnder = shortPath(entry.under);
    node.children = [];
    for (let i = 0; i < entry.shownKids; i++) {
      const kid = kids[i] as Entry;
      const child = nodeOf(kid);
      node.children.push(child);
      stack.push({ entry: kid, node: child });
    }
    if (entry.shownKids < kids.length) node.omittedChildren = kids.length - entry.shownKids;
  }
  return rootNode;
}

/** The top-level count first: "array of 81,540 objects", "1,319 JSON Lines of objects". */
function summaryOf(f: NodeFacts, source: ShapeSource): string {
  if (source.kind === 'jsonl') {
    return `${plural(source.records ?? 0, 'JSON Line')}${f.types.length === 1 ? ` of ${typeWord(f, f.types[0]?.type, 2)}` : `: ${mixedTypes(f)}`}`;
  }
  const only = f.types.length === 1 ? f.types[0]?.type : undefined;
  if (only === 'array' && f.array !== undefined) {
    const n = f.array.maxLength;
    if (n === 0 || f.array.items === undefined) return 'empty array';
    const items = f.array.items;
    const what = items.types.length === 1 ? typeWord(items, items.types[0]?.type, n) : `values (${mixedTypes(items)})`;
    return `array of ${formatCount(n)} ${what}`;
  }
  if (only === 'object' && f.object !== undefined) {
    if (f.object.maxKeys === 0) return 'empty object';
    return `object with ${plural(f.object.maxKeys, 'key')}${f.object.map !== undefined ? ' (outlined as a map)' : ''}`;
  }
  return `a single ${only === 'number' ? typeWord(f, only, 1) : (only ?? 'value')}`;
}

function typeWord(f: NodeFacts, type: TypeName | undefined, count: number): string {
  let word: string = type ?? 'value';
  if (type === 'number') word = f.number !== undefined && f.number.floats > 0 ? (f.number.integers > 0 ? 'number' : 'float') : 'integer';
  return count === 1 ? word : `${word}s`;
}

function mixedTypes(f: NodeFacts): string {
  return f.types.map((t) => `${t.type === 'number' ? typeWord(f, 'number', 1) : t.type} ${formatCount(t.count)}`).join(' | ');
}

function countUnexpanded(root: ShapeNode): number {
  let total = 0;
  const stack: ShapeNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as ShapeNode;
    total += n.unexpanded;
    if (n.items !== undefined) stack.push(n.items);
    if (n.keys !== undefined) for (const child of n.keys.values()) stack.push(child);
    if (n.map !== undefined) stack.push(n.map.values);
  }
  return total;
}

/** The rules behind what the shown lines claim (enum, format, map), each stated once. */
function rulesUsed(root: Entry): string[] {
  let enums = false;
  let formats = false;
  let maps = false;
  const visitFacts = (f: NodeFacts): void => {
    if (f.string?.enum !== undefined) enums = true;
    if (f.string?.format !== undefined) formats = true;
    if (f.object?.map !== undefined) {
      maps = true;
      visitFacts(f.object.map.values);
    }
    if (f.array?.items !== undefined) visitFacts(f.array.items);
  };
  const stack: Entry[] = [root];
  while (stack.length > 0) {
    const e = stack.pop() as Entry;
    visitFacts(e.facts);
    const kids = e.kids ?? [];
    for (let i = 0; i < e.shownKids; i++) stack.push(kids[i] as Entry);
  }
  const rules: string[] = [];
  if (maps) rules.push(`rule: ${MAP_RULE}`);
  if (enums) rules.push(`rule: ${ENUM_RULE}`);
  if (formats) rules.push(`rule: ${FORMAT_RULE}`);
  return rules;
}

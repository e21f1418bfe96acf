/**
 * The outline as entries (one per shown line) and the line budget.
 *
 * Children of an entry are its object's keys in order of first appearance, plain ones
 * (no children of their own) before nested ones. Arrays and maps that are a node's only
 * container are flattened: "items: array of object" lists the elements' keys directly
 * (paths say `items[]`), and a map lists its values' keys (`payload.*`).
 *
 * The budget is handed out breadth first: every key at one level gets its line before any
 * key a level deeper, so a large subtree can never push its siblings out. Where a parent's
 * children do not all fit, a marker line says how many are left out and under which path;
 * where none fit, the parent's own line says so.
 */
import { cut, formatCount, keyLabel, pathSegment } from './text.js';
import { describe, factsOf, type NodeFacts } from './facts.js';
import { isBefore, type ShapeNode } from './node.js';
import { redact } from '../redact/index.js';

export interface Entry {
  /** The key, redacted and cut (undefined for the `[]` and `*` pseudo-keys). */
  key: string | undefined;
  path: string;
  node: ShapeNode;
  /** The nearest object key at or above this entry, for key-based redaction. */
  field: string | undefined;
  /** For a key missing from some objects: how many had it, out of how many. */
  present?: number;
  of?: number;
  /** Values beyond the first for this key within one object, summed over objects. */
  repeated?: number;
  facts: NodeFacts;
  /** The line without indentation. */
  text: string;
  /** Filled by allocate(). */
  kids: Entry[] | undefined;
  /** Path the kids sit under (differs from path when arrays or maps are flattened). */
  under: string;
  shownKids: number;
}

export interface Allocation {
  root: Entry;
  shownEntries: number;
  linesUsed: number;
  /** Whether some entries were left out only because they sit deeper than MAX_SHOWN_DEPTH. */
  depthCut: boolean;
}

/** Entries deeper than this are not given lines (indentation would eat the budget). */
export const MAX_SHOWN_DEPTH = 24;

export function rootEntry(node: ShapeNode): Entry {
  return makeEntry(undefined, '$', node, undefined, undefined, undefined);
}

function makeEntry(
  key: string | undefined,
  path: string,
  node: ShapeNode,
  field: string | undefined,
  label: string | undefined,
  ofObjects: number | undefined,
): Entry {
  const facts = factsOf(node, field);
  // A repeated key has more values than objects holding it.
  const present = node.count - node.repeats;
  const optional = ofObjects !== undefined && present < ofObjects;
  const head = label === undefined ? '' : `${label}${optional ? '?' : ''}: `;
  let presence = optional ? ` (present ${fmt(present)}/${fmt(ofObjects)})` : '';
  if (node.repeats > 0) presence += ` (repeated within an object: ${fmt(node.repeats)} extra ${node.repeats === 1 ? 'value' : 'values'}, all counted)`;
  const entry: Entry = {
    key: key === undefined ? undefined : cut(redact(key), 40),
    path,
    node,
    field,
    facts,
    text: `${head}${describe(facts)}${presence}`,
    kids: undefined,
    under: path,
    shownKids: 0,
  };
  if (optional) {
    entry.present = present;
    entry.of = ofObjects;
  }
  if (node.repeats > 0) entry.repeated = node.repeats;
  return entry;
}

function fmt(n: number | undefined): string {
  return formatCount(n ?? 0);
}

/** Whether a node would have child lines (structural, no facts needed). */
export function hasKids(n: ShapeNode): boolean {
  const items = n.items !== undefined && n.items.count > 0 ? n.items : undefined;
  if (n.keys !== undefined && n.keys.size > 0) return true;
  if (n.map !== undefined) return items !== undefined || hasKids(n.map.values);
  return items !== undefined && hasKids(items);
}

/** The child entries of a node, in display order, and the path they sit under. */
export function kidsOf(n: ShapeNode, path: string, field: string | undefined): { kids: Entry[]; under: string } {
  const items = n.items !== undefined && n.items.count > 0 ? n.items : undefined;
  const keyed = n.keys !== undefined && n.keys.size > 0;
  const map = n.map;
  if (!keyed && map === undefined) {
    return items === undefined ? { kids: [], under: path } : kidsOf(items, `${path}[]`, field);
  }
  if (map !== undefined && items === undefined) return kidsOf(map.values, `${path}.*`, field);
  const kids: Entry[] = [];
  if (keyed && n.keys !== undefined) {
    const byPosition = [...n.keys].sort(([, a], [, b]) => (isBefore(a.firstMajor, a.firstMinor, b.firstMajor, b.firstMinor) ? -1 : 1));
    for (const [key, child] of byPosition) {
      kids.push(makeEntry(key, `${path}${pathSegment(key)}`, child, key, keyLabel(key), n.objects));
    }
  }
  if (map !== undefined) kids.push(makeEntry(undefined, `${path}.*`, map.values, field, '*', undefined));
  if (items !== undefined) kids.push(makeEntry(undefined, `${path}[]`, items, field, '[]', undefined));
  // Plain first, each group in order of first appearance (sort is stable).
  const plain = kids.filter((k) => !hasKids(k.node));
  const nested = kids.filter((k) => hasKids(k.node));
  return { kids: [...plain, ...nested], under: path };
}

/** Text of the marker line for kids left out under a parent. */
export function markerText(left: number, allKeys: boolean, under: string): string {
  return `... ${fmt(left)} more ${allKeys ? (left === 1 ? 'key' : 'keys') : left === 1 ? 'entry' : 'entries'} under ${shortPath(under)}`;
}

/** The note on a parent line whose kids were all left out. */
export function notShownText(count: number, allKeys: boolean): string {
  return ` {${fmt(count)} ${allKeys ? (count === 1 ? 'key' : 'keys') : count === 1 ? 'entry' : 'entries'} not shown}`;
}

export function kidsAreKeys(kids: Entry[]): boolean {
  return kids.every((k) => k.key !== undefined);
}

export function shortPath(path: string): string {
  return path.length <= 100 ? path : `…${path.slice(path.length - 99)}`;
}

const INDENT = 2;
/** Room kept on a line for a " {N keys not shown}" note added after allocation. */
const NOTE_ROOM = 24;

function lineBytes(e: Entry, depth: number): number {
  return Buffer.byteLength(e.text) + depth * INDENT + 1 + (hasKids(e.node) ? NOTE_ROOM : 0);
}

/**
 * Hand out `lines` lines and `bytes` bytes breadth first (see the module comment).
 * Root kids are at depth 1.
 */
export function allocate(root: Entry, lines: number, bytes: number): Allocation {
  let linesLeft = lines;
  let bytesLeft = bytes;
  let shownEntries = 0;
  let depthCut = false;
  const queue: { entry: Entry; depth: number }[] = [{ entry: root, depth: 0 }];
  for (let qi = 0; qi < queue.length; qi++) {
    const { entry: parent, depth } = queue[qi] as { entry: Entry; depth: number };
    if (!hasKids(parent.node)) {
      parent.kids = [];
      continue;
    }
    if (linesLeft <= 0 || depth >= MAX_SHOWN_DEPTH) {
      // Nothing more fits (or it is too deep to indent): the kids are counted, not shown.
      parent.kids = kidsOf(parent.node, parent.path, parent.field).kids;
      parent.shownKids = 0;
      if (linesLeft > 0) depthCut = true;
      continue;
    }
    const { kids, under } = kidsOf(parent.node, parent.path, parent.field);
    parent.kids = kids;
    parent.under = under;
    const costs = kids.map((k) => lineBytes(k, depth + 1));
    let take = 0;
    let used = 0;
    while (take < kids.length && take + 1 <= linesLeft && used + (costs[take] as number) <= bytesLeft) {
      used += costs[take] as number;
      take++;
    }
    if (take < kids.length) {
      const marker = Buffer.byteLength(markerText(kids.length, kidsAreKeys(kids), under)) + (depth + 1) * INDENT + 1;
      while (take > 0 && (take + 1 > linesLeft || used + marker > bytesLeft)) {
        take--;
        used -= costs[take] as number;
      }
      if (take === 0) {
        parent.shownKids = 0;
        continue;
      }
      linesLeft -= take + 1;
      bytesLeft -= used + marker;
    } else {
      linesLeft -= take;
      bytesLeft -= used;
    }
    parent.shownKids = take;
    shownEntries += take;
    for (let i = 0; i < take; i++) queue.push({ entry: kids[i] as Entry, depth: depth + 1 });
  }
  return { root, shownEntries, linesUsed: lines - linesLeft, depthCut };
}

/** Entries in the full outline (without building them), for "shown N of M". */
export function countEntries(n: ShapeNode): number {
  let total = 0;
  const stack: ShapeNode[] = [n];
  while (stack.length > 0) {
    const node = stack.pop() as ShapeNode;
    for (const kid of structuralKids(node)) {
      total++;
      stack.push(kid);
    }
  }
  return total;
}

/** The nodes kidsOf would make entries for, in no particular order. */
function structuralKids(n: ShapeNode): ShapeNode[] {
  const items = n.items !== undefined && n.items.count > 0 ? n.items : undefined;
  const keyed = n.keys !== undefined && n.keys.size > 0;
  const map = n.map;
  if (!keyed && map === undefined) return items === undefined ? [] : structuralKids(items);
  if (map !== undefined && items === undefined) return structuralKids(map.values);
  const out: ShapeNode[] = keyed && n.keys !== undefined ? [...n.keys.values()] : [];
  if (map !== undefined) out.push(map.values);
  if (items !== undefined) out.push(items);
  return out;
}

/**
 * The outline walk over a parsed value: iterative (an explicit stack of frames, so depth
 * costs heap, not call stack), in document pre-order (so positions match the token walk),
 * and bounded by a depth cap below which containers are counted but not entered.
 *
 * This is the hot loop of json_shape (it runs once per value), so it is written out flat:
 * no closures; an object's entries are copied by for-in (which V8 turns into direct field
 * loads) onto one shared entry stack instead of allocating Object.keys arrays; and a
 * per-node cache of the last key order lets records with the same keys skip the Map.
 */
import { formatChecked } from './formats.js';
import type { ShapeNode } from './node.js';
import {
  childOf,
  itemsOf,
  observeArray,
  observeBoolean,
  observeNull,
  observeNumber,
  observeObject,
  observeString,
  observeUnexpanded,
} from './observe.js';

/** Containers deeper than this are counted, not walked (and the outline says so). */
export const MAX_DEPTH = 64;

/**
 * Walk `value` into `root`. Positions are (major, minor + i) for the i-th value in
 * pre-order; returns the next free minor. `baseDepth` is the depth of `value` itself in
 * its document (0 for a document or a JSON Line).
 */
export function walkValue(root: ShapeNode, value: unknown, major: number, minor: number, baseDepth = 0): number {
  return new Walker().walk(root, value, major, minor, baseDepth);
}

/**
 * The walk's stacks, kept between walks so that many small values (JSON Lines) do not
 * each allocate them. One per caller; not shared.
 */
export class Walker {
  // Frames (parallel arrays): the node, the array (undefined for an object), where the
  // object's entries start on the entry stack, how many there are, the next index.
  private readonly nodes: ShapeNode[] = [];
  private readonly arrays: (unknown[] | undefined)[] = [];
  private readonly bases: number[] = [];
  private readonly sizes: number[] = [];
  private readonly next: number[] = [];
  // The entry stack: keys and values of the objects on the frame stack, innermost last.
  private readonly entryKeys: string[] = [];
  private readonly entryValues: unknown[] = [];

  walk(root: ShapeNode, value: unknown, major: number, minor: number, baseDepth = 0): number {
    return walkWith(this.nodes, this.arrays, this.bases, this.sizes, this.next, this.entryKeys, this.entryValues, root, value, major, minor, baseDepth);
  }
}

function walkWith(
  nodes: ShapeNode[],
  arrays: (unknown[] | undefined)[],
  bases: number[],
  sizes: number[],
  next: number[],
  entryKeys: string[],
  entryValues: unknown[],
  root: ShapeNode,
  value: unknown,
  major: number,
  minor: number,
  baseDepth: number,
): number {
  if (typeof value !== 'object' || value === null) {
    observeScalar(root, value, major, minor);
    return minor + 1;
  }
  if (baseDepth >= MAX_DEPTH) {
    const isArray = Array.isArray(value);
    observeUnexpanded(root, isArray, isArray ? value.length : Object.keys(value).length);
    return minor + 1;
  }
  let entryTop = 0;
  let top = 0;

  nodes[0] = root;
  next[0] = 0;
  if (Array.isArray(value)) {
    observeArray(root, value.length);
    arrays[0] = value;
    sizes[0] = value.length;
    bases[0] = 0;
  } else {
    const object = value as Record<string, unknown>;
    for (const key in object) {
      entryKeys[entryTop] = key;
      entryValues[entryTop++] = object[key];
    }
    observeObject(root, entryTop);
    arrays[0] = undefined;
    sizes[0] = entryTop;
    bases[0] = 0;
  }
  let pos = minor + 1;

  frames: while (top >= 0) {
    const n = nodes[top] as ShapeNode;
    const array = arrays[top];
    const base = bases[top] as number;
    const size = sizes[top] as number;
    const depth = baseDepth + top + 1;
    let i = next[top] as number;
    while (i < size) {
      let child: ShapeNode;
      let v: unknown;
      if (array !== undefined) {
        v = array[i];
        child = n.items ?? itemsOf(n, major, pos);
      } else {
        const key = entryKeys[base + i] as string;
        v = entryValues[base + i];
        // The key-order cache: records with the same keys as the last one skip the Map.
        const slotKeys = n.slotKeys;
        if (slotKeys !== undefined && slotKeys[i] === key) {
          child = (n.slotKids as ShapeNode[])[i] as ShapeNode;
        } else {
          child = childOf(n, key, major, pos);
          if (n.keys !== undefined) rememberSlot(n, i, key, child);
        }
      }
      i++;
      const at = pos++;
      if (typeof v === 'string') {
        observeString(child, v, major, at, formatChecked(major, at));
      } else if (typeof v === 'number') {
        observeNumber(child, v);
      } else if (v === null) {
        observeNull(child);
      } else if (typeof v === 'boolean') {
        observeBoolean(child, v);
      } else if (typeof v === 'object') {
        const isArray = Array.isArray(v);
        if (depth >= MAX_DEPTH) {
          observeUnexpanded(child, isArray, isArray ? (v as unknown[]).length : Object.keys(v).length);
          continue;
        }
        next[top] = i;
        if (isArray) {
          const length = (v as unknown[]).length;
          observeArray(child, length);
          if (length === 0) continue;
          top++;
          arrays[top] = v as unknown[];
          sizes[top] = length;
          bases[top] = entryTop;
        } else {
          const object = v as Record<string, unknown>;
          const start = entryTop;
          for (const key in object) {
            entryKeys[entryTop] = key;
            entryValues[entryTop++] = object[key];
          }
          observeObject(child, entryTop - start);
          if (entryTop === start) continue;
          top++;
          arrays[top] = undefined;
          sizes[top] = entryTop - start;
          bases[top] = start;
        }
        nodes[top] = child;
        next[top] = 0;
        continue frames;
      } else {
        // JSON.parse gives nothing else; a caller's undefined or function is skipped.
        pos--;
      }
    }
    // Done with this container: its entries (if an object) are the top of the entry stack.
    if (array === undefined) entryTop = base;
    arrays[top] = undefined;
    top--;
  }
  // Values stay referenced from the entry stack until the next walk overwrites them; the
  // caller holds the parsed value that long anyway.
  return pos;
}

function rememberSlot(n: ShapeNode, i: number, key: string, child: ShapeNode): void {
  if (i >= 256) return;
  if (n.slotKeys === undefined || n.slotKids === undefined) {
    n.slotKeys = [];
    n.slotKids = [];
  }
  n.slotKeys[i] = key;
  n.slotKids[i] = child;
}

function observeScalar(n: ShapeNode, v: unknown, major: number, minor: number): void {
  if (typeof v === 'string') observeString(n, v, major, minor, formatChecked(major, minor));
  else if (typeof v === 'number') observeNumber(n, v);
  else if (typeof v === 'boolean') observeBoolean(n, v);
  else if (v === null) observeNull(n);
}

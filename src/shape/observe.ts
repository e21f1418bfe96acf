/**
 * Recording one value into a ShapeNode. Both walks (a parsed value, a token stream) call
 * these, so a document shapes the same whichever way it was read. Callers observe values
 * in increasing input position, which is why "the first one wins" here is the same as
 * "the smallest position wins" in merge.ts.
 */
import { classify, matches } from './formats.js';
import { collapseToMap } from './merge.js';
import {
  ENUM_MAX_DISTINCT,
  ENUM_MAX_VALUE_LENGTH,
  EXAMPLE_KEEP_CHARS,
  FORMAT_NONE,
  FORMAT_UNSEEN,
  MAP_MAX_KEYS,
  MAP_MIN_ID_KEYS,
  isIdLikeKey,
  newNode,
  type ShapeNode,
} from './node.js';

export function observeNull(n: ShapeNode): void {
  n.count++;
  n.nulls++;
}

export function observeBoolean(n: ShapeNode, b: boolean): void {
  n.count++;
  if (b) n.trues++;
  else n.falses++;
}

export function observeNumber(n: ShapeNode, v: number): void {
  n.count++;
  if (Number.isInteger(v)) {
    n.ints++;
    if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) n.unsafeInts++;
  } else {
    n.floats++;
  }
  if (v < n.numMin) n.numMin = v;
  if (v > n.numMax) n.numMax = v;
}

/** `checkFormat`: whether this string's position is one where formats are checked (see formatChecked). */
export function observeString(n: ShapeNode, s: string, major: number, minor: number, checkFormat: boolean): void {
  countString(n, s.length);
  describeString(n, s, major, minor, checkFormat && n.format !== FORMAT_NONE && s.length > 0);
}

/** What a string adds without its text: a walk over bytes calls this for every string... */
export function countString(n: ShapeNode, length: number): void {
  n.count++;
  n.strings++;
  if (length < n.strMinLen) n.strMinLen = length;
  if (length > n.strMaxLen) n.strMaxLen = length;
}

/**
 * ...and this only when the text matters: while the node has no example, while its
 * strings may still be an enum, or when `checkFormat` (a checked position, a node whose
 * format is not ruled out, a non-empty string).
 */
export function describeString(n: ShapeNode, s: string, major: number, minor: number, checkFormat: boolean): void {
  if (n.example === undefined) {
    n.example = ownCopy(s.length > EXAMPLE_KEEP_CHARS ? s.slice(0, EXAMPLE_KEEP_CHARS) : s);
    n.exMajor = major;
    n.exMinor = minor;
  }
  if (checkFormat) {
    if (n.format === FORMAT_UNSEEN) n.format = classify(s);
    else if (!matches(n.format, s)) n.format = FORMAT_NONE;
  }
  const values = n.enumValues;
  if (values !== null) {
    const entry = values.get(s);
    if (entry !== undefined) entry.count++;
    else if (values.size < ENUM_MAX_DISTINCT && s.length <= ENUM_MAX_VALUE_LENGTH) values.set(ownCopy(s), { count: 1, major, minor });
    else n.enumValues = null;
  }
}

/** An array of `length` elements; its elements go to itemsOf(n). */
export function observeArray(n: ShapeNode, length: number): void {
  n.count++;
  n.arrays++;
  if (length < n.arrMinLen) n.arrMinLen = length;
  if (length > n.arrMaxLen) n.arrMaxLen = length;
}

export function itemsOf(n: ShapeNode, major: number, minor: number): ShapeNode {
  let items = n.items;
  if (items === undefined) n.items = items = newNode(major, minor);
  return items;
}

/** An object with `keyCount` keys; each key's value goes to childOf(n, key). */
export function observeObject(n: ShapeNode, keyCount: number): void {
  openObject(n);
  closeObject(n, keyCount);
}

/** Before the keys of an object (for a walk that learns the key count only at the end). */
export function openObject(n: ShapeNode): void {
  if (n.keys === undefined && n.map === undefined) n.keys = new Map();
}

/** After the keys of an object. */
export function closeObject(n: ShapeNode, keyCount: number): void {
  n.count++;
  n.objects++;
  if (keyCount < n.objMinKeys) n.objMinKeys = keyCount;
  if (keyCount > n.objMaxKeys) n.objMaxKeys = keyCount;
}

/** A container at the depth cap: its type counts, its contents are not walked. */
export function observeUnexpanded(n: ShapeNode, isArray: boolean, size: number): void {
  if (isArray) observeArray(n, size);
  else observeObject(n, size);
  n.unexpanded++;
}

/** The node for `key` under object node n (which observeObject has seen), created at (major, minor). */
export function childOf(n: ShapeNode, key: string, major: number, minor: number): ShapeNode {
  const keys = n.keys;
  if (keys === undefined) return mapValuesOf(n);
  const child = keys.get(key);
  if (child !== undefined) return child;
  const idLike = isIdLikeKey(key);
  if (keys.size + 1 > MAP_MAX_KEYS || n.idLikeKeys + (idLike ? 1 : 0) >= MAP_MIN_ID_KEYS) {
    collapseToMap(n, { key: ownCopy(key), major, minor });
    return mapValuesOf(n);
  }
  if (idLike) n.idLikeKeys++;
  const created = newNode(major, minor);
  keys.set(ownCopy(key), created);
  return created;
}

let lastObjectSerial = 0;

/** A number for an object being walked, unique in this thread: see stampChild. */
export function nextObjectSerial(): number {
  return ++lastObjectSerial;
}

/**
 * Mark `child`, the node of a key of object node `n`, as seen in the object numbered
 * `serial`; a second time in the same object is a repeated key. JSON.parse would keep only
 * the last value; a walk observes each and the outline says the key repeats, which is
 * what a reader of such data needs to know. Keys of a map (which childOf may just have
 * made `n`) are not told apart.
 */
export function stampChild(n: ShapeNode, child: ShapeNode, serial: number): void {
  if (n.keys === undefined) return;
  if (child.stamp === serial) child.repeats++;
  else child.stamp = serial;
}

/**
 * `s` in memory of its own. A string cut from a larger one (as the tokenizer cuts values
 * from its text) can be a view that keeps all of that text alive; what the shape keeps
 * (an example, enum values, keys) is copied, so the shape never holds the input. Called
 * once per thing kept, never per value.
 */
export function ownCopy(s: string): string {
  // Joining flattens into a new string; the slice then points into that copy only.
  return ` ${s}`.slice(1);
}

function mapValuesOf(n: ShapeNode): ShapeNode {
  const map = n.map;
  if (map === undefined) throw new Error('childOf called on a node that has seen no object');
  return map.values;
}

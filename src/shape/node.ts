/**
 * The shape accumulator: one ShapeNode per path, holding what was seen there.
 *
 * Everything in a node is mergeable in any grouping with the same result (counts add,
 * ranges take min/max, "first" things take the smallest input position), so chunks of
 * JSON Lines shaped in different workers merge to exactly what one pass would give, and
 * a map collapse (which folds the children of an object into one node) lands the same
 * wherever it happens. Nodes are plain data (no classes) so a worker can return them
 * through structured clone unchanged.
 *
 * A position is a pair (major, minor) compared lexicographically: major orders lines
 * (0 for a single document), minor counts values within one line or document.
 */

export interface EnumEntry {
  count: number;
  major: number;
  minor: number;
}

export interface SampleKey {
  key: string;
  major: number;
  minor: number;
}

export interface MapPart {
  /** All values of all keys, merged. */
  values: ShapeNode;
  /** The first few distinct keys by input position. */
  sampleKeys: SampleKey[];
}

export interface ShapeNode {
  /** Values seen at this path (for an object key: objects that had the key). */
  count: number;
  /** Position of the first value seen here; orders keys by first appearance. */
  firstMajor: number;
  firstMinor: number;
  nulls: number;
  trues: number;
  falses: number;
  ints: number;
  floats: number;
  numMin: number;
  numMax: number;
  /** Integer-valued numbers beyond 2^53 in magnitude: JSON.parse rounded them. */
  unsafeInts: number;
  strings: number;
  strMinLen: number;
  strMaxLen: number;
  example: string | undefined;
  exMajor: number;
  exMinor: number;
  /** FORMAT_UNSEEN, FORMAT_NONE, or a format id shared by every non-empty string. */
  format: number;
  /** Distinct short strings with counts while they stay few; null once they are not. */
  enumValues: Map<string, EnumEntry> | null;
  arrays: number;
  arrMinLen: number;
  arrMaxLen: number;
  items: ShapeNode | undefined;
  objects: number;
  objMinKeys: number;
  objMaxKeys: number;
  /** Children by key while this node is an ordinary object; undefined once a map. */
  keys: Map<string, ShapeNode> | undefined;
  /** Distinct keys that look like ids (see isIdLikeKey), counted until the collapse. */
  idLikeKeys: number;
  map: MapPart | undefined;
  /** Objects and arrays at the depth cap, counted but not walked into. */
  unexpanded: number;
  /**
   * Values beyond the first for this key within one object (a repeated key): objects
   * holding the key are count - repeats. Not tracked for the keys of a map.
   */
  repeats: number;
  /** The walk's mark of the last object this key was seen in (see stampChild); not part of the result. */
  stamp: number;
  /**
   * The walk's cache of the last key order seen here: slotKids[i] is the child for
   * slotKeys[i]. Valid while it points into `keys` (cleared on a map collapse, dropped
   * before a shape leaves a worker); never part of the result.
   */
  slotKeys: string[] | undefined;
  slotKids: ShapeNode[] | undefined;
  /**
   * The byte walk's cache of enumValues for plain ASCII values: enumTexts[i] is counted in
   * enumEntries[i], which is the entry in enumValues. Never part of the result.
   */
  enumTexts: string[] | undefined;
  enumEntries: EnumEntry[] | undefined;
}

/** Containers deeper than this are counted, not walked (and the outline says so). */
export const MAX_DEPTH = 64;

/** Strings longer than this never count as enum values. */
export const ENUM_MAX_VALUE_LENGTH = 64;
/** At most this many distinct values are tracked per path (and shown as an enum). */
export const ENUM_MAX_DISTINCT = 10;
/** An object becomes a map when it has seen more distinct keys than this... */
export const MAP_MAX_KEYS = 200;
/** ...or at least this many distinct keys that look like data (ids, paths; see isIdLikeKey). */
export const MAP_MIN_ID_KEYS = 10;
export const MAP_SAMPLE_KEYS = 3;
/** Examples are kept whole up to this length, so redaction sees a secret whole. */
export const EXAMPLE_KEEP_CHARS = 65_537;

export const FORMAT_UNSEEN = 0;
export const FORMAT_NONE = -1;

export function newNode(major: number, minor: number): ShapeNode {
  return {
    count: 0,
    firstMajor: major,
    firstMinor: minor,
    nulls: 0,
    trues: 0,
    falses: 0,
    ints: 0,
    floats: 0,
    numMin: Infinity,
    numMax: -Infinity,
    unsafeInts: 0,
    strings: 0,
    strMinLen: Infinity,
    strMaxLen: -Infinity,
    example: undefined,
    exMajor: 0,
    exMinor: 0,
    format: FORMAT_UNSEEN,
    enumValues: new Map(),
    arrays: 0,
    arrMinLen: Infinity,
    arrMaxLen: -Infinity,
    items: undefined,
    objects: 0,
    objMinKeys: Infinity,
    objMaxKeys: -Infinity,
    keys: undefined,
    idLikeKeys: 0,
    map: undefined,
    unexpanded: 0,
    repeats: 0,
    stamp: 0,
    slotKeys: undefined,
    slotKids: undefined,
    enumTexts: undefined,
    enumEntries: undefined,
  };
}

/** Remove the walk's caches from a whole tree (before structured clone). */
export function dropWalkCaches(root: ShapeNode): void {
  const stack: ShapeNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as ShapeNode;
    n.slotKeys = undefined;
    n.slotKids = undefined;
    n.enumTexts = undefined;
    n.enumEntries = undefined;
    if (n.items !== undefined) stack.push(n.items);
    if (n.keys !== undefined) for (const child of n.keys.values()) stack.push(child);
    if (n.map !== undefined) stack.push(n.map.values);
  }
}

export function isBefore(aMajor: number, aMinor: number, bMajor: number, bMinor: number): boolean {
  return aMajor < bMajor || (aMajor === bMajor && aMinor < bMinor);
}

/**
 * Keys that are data rather than field names: all digits, a UUID, hex of 8+ characters
 * with a digit, or text with a path, URL, address or sentence in it (/ \ : @ or a space).
 * Checked once per distinct key, so a plain loop is fine.
 */
export function isIdLikeKey(key: string): boolean {
  const n = key.length;
  if (n === 0) return false;
  let digits = 0;
  let hex = 0;
  let dashes = 0;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if ((c >= 97 && c <= 102) || (c >= 65 && c <= 70)) hex++;
    else if (c === 45) dashes++;
    else if (c === 47 || c === 92 || c === 58 || c === 64 || c === 32) return true;
  }
  if (digits === n) return true;
  if (digits + hex + dashes !== n) return false;
  if (dashes === 4 && n === 36) return true;
  return dashes === 0 && n >= 8 && digits > 0;
}

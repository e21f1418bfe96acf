/**
 * Merging shapes. mergeInto is associative and commutative over everything a node holds
 * (sums, min/max, smallest-position picks, set unions with a monotone overflow), so
 * partial shapes from any chunking merge to one result. The map collapse is a merge of an
 * object's children and is triggered by a monotone rule on the union of its keys, so it
 * lands the same whether it happens during a walk or during a merge.
 *
 * The source node is consumed: subtrees are adopted, not copied.
 */
import { combineFormats } from './formats.js';
import {
  ENUM_MAX_DISTINCT,
  MAP_MAX_KEYS,
  MAP_MIN_ID_KEYS,
  MAP_SAMPLE_KEYS,
  isBefore,
  isIdLikeKey,
  newNode,
  type EnumEntry,
  type SampleKey,
  type ShapeNode,
} from './node.js';

export function mergeInto(dst: ShapeNode, src: ShapeNode): void {
  if (src.count === 0) return;
  dst.count += src.count;
  if (isBefore(src.firstMajor, src.firstMinor, dst.firstMajor, dst.firstMinor)) {
    dst.firstMajor = src.firstMajor;
    dst.firstMinor = src.firstMinor;
  }
  dst.nulls += src.nulls;
  dst.trues += src.trues;
  dst.falses += src.falses;
  dst.ints += src.ints;
  dst.floats += src.floats;
  dst.unsafeInts += src.unsafeInts;
  if (src.numMin < dst.numMin) dst.numMin = src.numMin;
  if (src.numMax > dst.numMax) dst.numMax = src.numMax;
  mergeStrings(dst, src);
  dst.unexpanded += src.unexpanded;
  dst.repeats += src.repeats;

  dst.arrays += src.arrays;
  if (src.arrMinLen < dst.arrMinLen) dst.arrMinLen = src.arrMinLen;
  if (src.arrMaxLen > dst.arrMaxLen) dst.arrMaxLen = src.arrMaxLen;
  if (src.items !== undefined) {
    if (dst.items === undefined) dst.items = src.items;
    else mergeInto(dst.items, src.items);
  }

  dst.objects += src.objects;
  if (src.objMinKeys < dst.objMinKeys) dst.objMinKeys = src.objMinKeys;
  if (src.objMaxKeys > dst.objMaxKeys) dst.objMaxKeys = src.objMaxKeys;
  mergeObjectParts(dst, src);
}

function mergeStrings(dst: ShapeNode, src: ShapeNode): void {
  if (src.strings === 0) return;
  dst.strings += src.strings;
  if (src.strMinLen < dst.strMinLen) dst.strMinLen = src.strMinLen;
  if (src.strMaxLen > dst.strMaxLen) dst.strMaxLen = src.strMaxLen;
  if (src.example !== undefined && (dst.example === undefined || isBefore(src.exMajor, src.exMinor, dst.exMajor, dst.exMinor))) {
    dst.example = src.example;
    dst.exMajor = src.exMajor;
    dst.exMinor = src.exMinor;
  }
  dst.format = combineFormats(dst.format, src.format);
  dst.enumValues = mergeEnums(dst.enumValues, src.enumValues);
}

/** Union with counts; more than ENUM_MAX_DISTINCT distinct values (in the union) is null. */
function mergeEnums(dst: Map<string, EnumEntry> | null, src: Map<string, EnumEntry> | null): Map<string, EnumEntry> | null {
  if (dst === null || src === null) return null;
  for (const [value, entry] of src) {
    const seen = dst.get(value);
    if (seen === undefined) {
      if (dst.size >= ENUM_MAX_DISTINCT) return null;
      dst.set(value, entry);
    } else {
      seen.count += entry.count;
      if (isBefore(entry.major, entry.minor, seen.major, seen.minor)) {
        seen.major = entry.major;
        seen.minor = entry.minor;
      }
    }
  }
  return dst;
}

function mergeObjectParts(dst: ShapeNode, src: ShapeNode): void {
  if (src.keys === undefined && src.map === undefined) return;
  if (dst.keys === undefined && dst.map === undefined) {
    dst.keys = src.keys;
    dst.map = src.map;
    dst.idLikeKeys = src.idLikeKeys;
    return;
  }
  if (dst.keys !== undefined && src.keys !== undefined) {
    const keys = dst.keys;
    for (const [key, child] of src.keys) {
      const seen = keys.get(key);
      if (seen !== undefined) {
        mergeInto(seen, child);
      } else {
        keys.set(key, child);
        if (isIdLikeKey(key)) dst.idLikeKeys++;
      }
    }
    if (keys.size > MAP_MAX_KEYS || dst.idLikeKeys >= MAP_MIN_ID_KEYS) collapseToMap(dst);
    return;
  }
  // At least one side is a map: the result is one.
  collapseToMap(dst);
  collapseToMap(src);
  const dstMap = dst.map;
  const srcMap = src.map;
  if (dstMap === undefined || srcMap === undefined) throw new Error('collapseToMap left no map');
  mergeInto(dstMap.values, srcMap.values);
  dstMap.sampleKeys = firstSampleKeys([...dstMap.sampleKeys, ...srcMap.sampleKeys]);
}

/**
 * Fold every child of an object node into one "values" node. The result depends only on
 * the set of children, not on their order or on when this runs, because merging doesn't.
 */
export function collapseToMap(n: ShapeNode, extraKey?: SampleKey): void {
  const keys = n.keys;
  if (keys === undefined) return;
  const values = newNode(Infinity, Infinity);
  let samples: SampleKey[] = extraKey === undefined ? [] : [extraKey];
  for (const [key, child] of keys) {
    samples.push({ key, major: child.firstMajor, minor: child.firstMinor });
    if (samples.length > 4 * MAP_SAMPLE_KEYS) samples = firstSampleKeys(samples);
    mergeInto(values, child);
  }
  // Keys of a map are not told apart, so neither are repeated ones: the same result
  // whenever the collapse happens.
  values.repeats = 0;
  n.keys = undefined;
  n.slotKeys = undefined;
  n.slotKids = undefined;
  n.map = { values, sampleKeys: firstSampleKeys(samples) };
}

/** The MAP_SAMPLE_KEYS distinct keys with the smallest positions. */
export function firstSampleKeys(candidates: SampleKey[]): SampleKey[] {
  const byKey = new Map<string, SampleKey>();
  for (const c of candidates) {
    const seen = byKey.get(c.key);
    if (seen === undefined || isBefore(c.major, c.minor, seen.major, seen.minor)) byKey.set(c.key, c);
  }
  return [...byKey.values()].sort(comparePositions).slice(0, MAP_SAMPLE_KEYS);
}

function comparePositions(a: SampleKey, b: SampleKey): number {
  if (isBefore(a.major, a.minor, b.major, b.minor)) return -1;
  return isBefore(b.major, b.minor, a.major, a.minor) ? 1 : 0;
}

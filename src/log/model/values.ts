/**
 * What a group's placeholders held: for each placeholder of its template, the values
 * behind it with their record counts, while it has few of them. That is often the
 * finding: every error from one host, one status.
 *
 * Exact and mergeable: a placeholder keeps counts for up to MAX_VALUES distinct values;
 * once it has seen more, it keeps none (`null`, "many"). Merging sums counts value by
 * value and turns to `null` past MAX_VALUES, so the outcome does not depend on how the
 * input was chunked or merged. Values come from redacted lines, as everything shown does.
 */

export const MAX_VALUES = 16;
/** A value longer than this is kept cut (with `…`): values are for reading, not keys. */
const MAX_VALUE_CHARS = 60;

/** Distinct values and their record counts, in first-seen order; null: more than MAX_VALUES. */
export type ValueCounts = [string, number][] | null;

/** A value counted elsewhere in the same chunk (the native pass): its bytes, its records, its first record's line. */
export interface CountedValue {
  bytes: Buffer;
  count: number;
  first: number;
}

/** A placeholder's tally inside one chunk: values found by their bytes' hash, decoded once. */
export class ValueTally {
  readonly hashes: number[] = [];
  /** Each value's bytes, to tell apart two values whose hashes collide. */
  readonly bytes: Buffer[] = [];
  readonly counts: number[] = [];
  /** Each value's first record's line: tallies of one chunk's values, counted apart, merge in input order. */
  readonly firsts: number[] = [];
  many = false;

  /** A value at buf[from, to), from a record that starts at line `line`. */
  add(buf: Buffer, from: number, to: number, line: number): void {
    if (this.many) return;
    const h = hashOf(buf, from, to);
    const hashes = this.hashes;
    for (let k = 0; k < hashes.length; k++) {
      if (hashes[k] === h && sameBytes(this.bytes[k]!, buf, from, to)) {
        this.counts[k]!++;
        return;
      }
    }
    if (hashes.length >= MAX_VALUES) {
      this.many = true;
      return;
    }
    hashes.push(h);
    this.bytes.push(Buffer.from(buf.subarray(from, to)));
    this.counts.push(1);
    this.firsts.push(line);
  }

  /**
   * Values counted apart from these, in other records of the same chunk (null: more than
   * MAX_VALUES): the tally comes out as if all its records had been added in input order.
   */
  merge(values: CountedValue[] | null): void {
    if (values === null) this.many = true;
    if (this.many) return;
    for (const v of values!) {
      const h = hashOf(v.bytes, 0, v.bytes.length);
      const k = this.hashes.findIndex((x, i) => x === h && sameBytes(this.bytes[i]!, v.bytes, 0, v.bytes.length));
      if (k >= 0) {
        this.counts[k]! += v.count;
        this.firsts[k] = Math.min(this.firsts[k]!, v.first);
        continue;
      }
      if (this.hashes.length >= MAX_VALUES) {
        this.many = true;
        return;
      }
      this.hashes.push(h);
      this.bytes.push(v.bytes);
      this.counts.push(v.count);
      this.firsts.push(v.first);
    }
    // First seen first, as values added in input order stand.
    const order = this.firsts.map((_, i) => i).sort((a, b) => this.firsts[a]! - this.firsts[b]!);
    const reorder = <T>(xs: T[]): void => {
      const sorted = order.map((i) => xs[i]!);
      xs.splice(0, xs.length, ...sorted);
    };
    reorder(this.hashes);
    reorder(this.bytes);
    reorder(this.counts);
    reorder(this.firsts);
  }

  result(): ValueCounts {
    return this.many ? null : this.bytes.map((b, k) => [cut(b.toString('utf8')), this.counts[k]!]);
  }
}

function hashOf(buf: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return (h >>> 0) + (to - from) * 4294967296;
}

/** Byte equality in JS: values are short, and Buffer#compare's call costs more than the loop. */
function sameBytes(a: Buffer, b: Buffer, from: number, to: number): boolean {
  if (a.length !== to - from) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[from + i]) return false;
  return true;
}

const cut = (s: string): string => (s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS - 1)}…` : s);

/** `a` then `b`, value by value (in place into a copy of a). */
export function mergeValueCounts(a: ValueCounts, b: ValueCounts): ValueCounts {
  if (a === null || b === null) return null;
  const out: [string, number][] = a.map(([v, n]) => [v, n]);
  for (const [v, n] of b) {
    const hit = out.find((e) => e[0] === v);
    if (hit !== undefined) hit[1] += n;
    else out.push([v, n]);
    if (out.length > MAX_VALUES) return null;
  }
  return out;
}

/** Merges two groups' per-placeholder values; undefined where either does not know them. */
export function mergeGroupValues(a: ValueCounts[] | undefined, b: ValueCounts[] | undefined): ValueCounts[] | undefined {
  if (a === undefined || b === undefined || a.length !== b.length) return undefined;
  return a.map((v, k) => mergeValueCounts(v, b[k]!));
}

/** Values from counted words: a `<*>` position's words, each with its template's records. */
export function countWords(words: [string, number][]): ValueCounts {
  let out: ValueCounts = [];
  for (const w of words) out = mergeValueCounts(out, [[cut(w[0]), w[1]]]);
  return out;
}

/** Most records first, then by value: the same order however the values arrived. */
export function byCount(values: [string, number][]): [string, number][] {
  return [...values].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

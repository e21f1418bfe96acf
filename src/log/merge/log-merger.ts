import { TRACE_WINDOW, type GroupStat, type LogPartial, type Overflow } from '../model/partial.js';
import { SEVERITY_COUNT, type Severity } from '../model/severity.js';
import type { MergedLog } from '../model/state.js';
import { mergeGroupValues } from '../model/values.js';

/** Past this many distinct templates, new ones are counted, not kept: memory stays bounded. */
export const MAX_GROUPS = 50_000;

/**
 * Folds chunk partials into one result, strictly in input order. Everything it does is a
 * sum, a first or a last in that order, so the result does not depend on where chunks
 * were cut or which worker condensed them.
 */
export class LogMerger {
  readonly #groups = new Map<string, GroupStat>();
  readonly #overflow: Overflow = { records: 0, lines: 0, bySeverity: new Array<number>(SEVERITY_COUNT).fill(0) };
  #lines = 0;
  #skipped = 0;
  #cut = 0;
  #cutRecords = 0;
  /** The group of the last record merged: what the next span's first record follows. */
  #last: string | null = null;
  /** Precursor pairs: error group key -> `precursor key \u0001 same-trace flag` -> count. */
  readonly #pairs = new Map<string, Map<string, number>>();
  /** Per trace: its last record's group and index (records counted from the input's start). */
  #traceLast = new Map<number, [string, number]>();
  #records = 0;

  /** Lines merged so far: where the next span's line numbers start. */
  get lines(): number {
    return this.#lines;
  }

  /** A new input starts: nothing in it continues, or comes after, the previous input's records. */
  startInput(): void {
    this.#last = null;
    this.#traceLast = new Map();
    this.#records = 0;
  }

  #countPair(key: string, before: string, sameTrace: number, n: number): void {
    if (key === before) return;
    let m = this.#pairs.get(key);
    if (m === undefined) this.#pairs.set(key, (m = new Map()));
    const id = `${before}\u0001${sameTrace}`;
    m.set(id, (m.get(id) ?? 0) + n);
  }

  /** Resolves the pairs a partial left open with what came before it, then takes its own. */
  #addSequence(q: NonNullable<LogPartial['sequence']>): void {
    const base = this.#records;
    const before = this.#last ?? undefined;
    if (q.firstError !== null && before !== undefined) this.#countPair(q.firstError, before, 0, 1);
    for (const [trace, key, previous, index] of q.openTraces) {
      const onTrace = this.#traceLast.get(trace);
      if (onTrace !== undefined && base + index - onTrace[1] <= TRACE_WINDOW) this.#countPair(key, onTrace[0], 1, 1);
      else if (previous !== '') this.#countPair(key, previous, 0, 1);
      else if (before !== undefined) this.#countPair(key, before, 0, 1);
    }
    for (const [key, b, sameTrace, n] of q.pairs) this.#countPair(key, b, sameTrace, n);
    for (const [trace, key, index] of q.traceLast) {
      this.#traceLast.delete(trace);
      this.#traceLast.set(trace, [key, base + index]);
    }
    this.#records += q.records;
    // Forget what is out of the window, now and then, in one pass (deleting one by one from
    // the front of a Map degrades to a scan per delete).
    if (this.#traceLast.size > 2 * TRACE_WINDOW) {
      const horizon = this.#records - TRACE_WINDOW;
      this.#traceLast = new Map([...this.#traceLast].filter(([, [, index]]) => index >= horizon));
    }
  }

  /**
   * Adds the next span's partial: a span of whole records (no record crosses spans). With
   * `input`, the partial is a whole input's and its groups count towards that input.
   */
  add(p: LogPartial, input?: number, inputOffset = 0): void {
    const offset = this.#lines;
    if (p.sequence !== undefined) this.#addSequence(p.sequence);
    for (const g of p.groups) this.#addGroup(g, offset, input, inputOffset);
    if (p.overflow !== undefined) {
      this.#overflow.records += p.overflow.records;
      this.#overflow.lines += p.overflow.lines;
      p.overflow.bySeverity.forEach((n, s) => {
        this.#overflow.bySeverity[s]! += n;
      });
    }
    if (p.last !== null) this.#last = p.last;
    this.#lines += p.lines;
    this.#skipped += p.skipped;
    this.#cut += p.cut;
    this.#cutRecords += p.cutRecords ?? 0;
  }

  #addGroup(g: GroupStat, offset: number, input: number | undefined, inputOffset: number): void {
    // A merged span's groups know their inputs already: renumber them after those before.
    const counts: [number, number][] =
      input !== undefined ? [[input, g.records]] : Object.entries(g.perInput ?? {}).map(([i, n]) => [Number(i) + inputOffset, n]);
    const existing = this.#groups.get(g.key);
    if (existing !== undefined) {
      existing.records += g.records;
      existing.lines += g.lines;
      existing.lastLine = g.lastLine + offset;
      existing.lastTime = g.lastTime;
      const values = mergeGroupValues(existing.values, g.values);
      if (values === undefined) delete existing.values;
      else existing.values = values;
      for (const [i, n] of counts) (existing.perInput ??= {})[i] = (existing.perInput[i] ?? 0) + n;
      return;
    }
    if (this.#groups.size >= MAX_GROUPS) {
      this.#countOverflow(g.severity, g.records, g.lines);
      return;
    }
    g.firstLine += offset;
    g.lastLine += offset;
    if (counts.length > 0) g.perInput = Object.fromEntries(counts);
    else delete g.perInput;
    this.#groups.set(g.key, g);
  }

  /** What was merged, read-only: the merger is done with once this is taken. */
  finish(): MergedLog {
    return {
      groups: this.#groups,
      overflow: this.#overflow,
      pairs: this.#pairs,
      lines: this.#lines,
      skipped: this.#skipped,
      cut: this.#cut,
      cutRecords: this.#cutRecords,
      last: this.#last,
    };
  }

  /** Everything merged so far as one partial: see partialOf. */
  toPartial(): LogPartial {
    return partialOf(this.finish());
  }

  #countOverflow(severity: Severity, records: number, lines: number): void {
    this.#overflow.records += records;
    this.#overflow.lines += lines;
    this.#overflow.bySeverity[severity]! += lines;
  }
}

/**
 * A merged span as one partial, to be merged again: merging is associative, so a whole
 * input can be condensed apart and folded in (or dropped) as a unit, and a partial file
 * merged with others.
 */
export function partialOf(m: MergedLog): LogPartial {
  return {
    lines: m.lines,
    skipped: m.skipped,
    cut: m.cut,
    cutRecords: m.cutRecords,
    groups: [...m.groups.values()],
    last: m.last,
    overflow: m.overflow,
    // Pairs are resolved by now; a whole span starts no earlier record, so nothing is open.
    sequence: {
      pairs: [...m.pairs].flatMap(([key, pairs]) =>
        [...pairs].map(([id, n]): [string, string, number, number] => {
          const [b, sameTrace] = id.split('\u0001');
          return [key, b!, Number(sameTrace), n];
        }),
      ),
      records: 0,
      firstError: null,
      openTraces: [],
      traceLast: [],
    },
  };
}

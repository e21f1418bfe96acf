import type { GroupStat, Overflow } from './partial.js';
import type { LogRead } from './result.js';

/**
 * Every chunk merged, in input order: what grouping and ranking read. Read-only: ranking,
 * comparing or writing a partial never changes it.
 */
export interface MergedLog {
  readonly groups: ReadonlyMap<string, GroupStat>;
  readonly overflow: Readonly<Overflow>;
  /** Precursor pairs: error group key -> `precursor key \u0001 same-trace flag` -> count. */
  readonly pairs: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly lines: number;
  readonly skipped: number;
  readonly cut: number;
  readonly cutRecords: number;
  /** The group of the last record merged. */
  readonly last: string | null;
}

/** A log read and merged, before grouping and ranking: what a partial holds and a comparison compares. */
export interface LogState {
  kind: 'merged';
  merged: MergedLog;
  read: LogRead;
  /** A single input small enough to show whole: its lines, redacted. */
  whole?: string[];
}

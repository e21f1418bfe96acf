/**
 * When a group both runs have changed its rate: counts normalised by each run's records,
 * compared exactly (integers, no floating point), so the answer is the same everywhere.
 *
 * A group's rate changed when it is at least MIN_FACTOR times higher or lower per record
 * than in the baseline, and its count is at least MIN_RECORDS_OFF records away from what
 * the baseline's rate predicts for this run: a line seen once and then twice is not news.
 */
export const MIN_FACTOR = 2;
export const MIN_RECORDS_OFF = 5;

export const RATE_RULE = `per record of each run, ${MIN_FACTOR}x or more up or down, and ${MIN_RECORDS_OFF} or more records away from the baseline's rate`;

export interface RateChange {
  direction: 'up' | 'down';
  /** now / predicted or predicted / now, for display. */
  factor: number;
  /** |now - predicted|, for ranking. */
  recordsOff: number;
}

/**
 * `now` records of this run's `nowTotal`, `was` of the baseline's `wasTotal`. The
 * prediction for this run is was * nowTotal / wasTotal; every comparison is made with
 * both sides multiplied by wasTotal.
 */
export function rateChange(now: number, nowTotal: number, was: number, wasTotal: number): RateChange | undefined {
  if (nowTotal <= 0 || wasTotal <= 0) return undefined;
  const n = BigInt(now) * BigInt(wasTotal);
  const predicted = BigInt(was) * BigInt(nowTotal);
  const off = n > predicted ? n - predicted : predicted - n;
  if (off < BigInt(MIN_RECORDS_OFF) * BigInt(wasTotal)) return undefined;
  const factor = BigInt(MIN_FACTOR);
  const up = n >= factor * predicted;
  const down = predicted >= factor * n;
  if (!up && !down) return undefined;
  const ratio = up ? (predicted === 0n ? Infinity : Number(n) / Number(predicted)) : n === 0n ? Infinity : Number(predicted) / Number(n);
  return { direction: up ? 'up' : 'down', factor: Math.round(ratio * 10) / 10, recordsOff: Number(off) / wasTotal };
}

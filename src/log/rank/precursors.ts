import type { GroupStat } from '../model/partial.js';
import type { Precursor } from '../model/result.js';
import { severityName, Severity } from '../model/severity.js';
import { clip } from '../../core/text.js';

/** At least this many times, on at least this share of the error's records... */
const MIN_COUNT = 3;
const MIN_SHARE = 0.3;
/** ...and this many times more often than the precursor's share of all records would give. */
const MIN_LIFT = 3;
const TEMPLATE_CHARS = 120;

/**
 * Precursors for the error and fault groups shown. Pairs were counted per original group
 * key; `representative` maps them onto the groups after word-variable merging.
 */
export function findPrecursors(
  shown: GroupStat[],
  all: GroupStat[],
  pairs: ReadonlyMap<string, ReadonlyMap<string, number>>,
  representative: Map<string, string>,
): Map<string, Precursor> {
  const rep = (key: string): string => representative.get(key) ?? key;
  const byKey = new Map(all.map((g) => [g.key, g]));
  const totalRecords = all.reduce((n, g) => n + g.records, 0);
  // Pairs of every original key, gathered under the shown group they now belong to.
  const counts = new Map<string, Map<string, number>>();
  for (const [key, m] of pairs) {
    const g = rep(key);
    let c = counts.get(g);
    if (c === undefined) counts.set(g, (c = new Map()));
    for (const [id, n] of m) {
      const [before, sameTrace] = id.split('\u0001');
      const target = `${rep(before!)}\u0001${sameTrace}`;
      c.set(target, (c.get(target) ?? 0) + n);
    }
  }
  const out = new Map<string, Precursor>();
  for (const g of shown) {
    if (g.severity > Severity.Error) continue;
    const c = counts.get(g.key);
    if (c === undefined) continue;
    let best: { p: GroupStat; n: number; sameTrace: boolean } | undefined;
    for (const [id, n] of c) {
      const [beforeKey, flag] = id.split('\u0001');
      const p = byKey.get(beforeKey!);
      if (p === undefined || p.key === g.key) continue;
      const share = p.records / totalRecords;
      if (n < MIN_COUNT || n < MIN_SHARE * g.records || n / g.records < MIN_LIFT * share) continue;
      const sameTrace = flag === '1';
      if (best === undefined || n > best.n || (n === best.n && (sameTrace > best.sameTrace || (sameTrace === best.sameTrace && p.firstLine < best.p.firstLine)))) {
        best = { p, n, sameTrace };
      }
    }
    if (best === undefined) continue;
    const template = best.p.template;
    out.set(g.key, {
      severity: severityName(best.p.severity),
      template: clip(template, TEMPLATE_CHARS),
      count: best.n,
      of: g.records,
      sameTrace: best.sameTrace,
    });
  }
  return out;
}

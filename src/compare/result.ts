import type { LogResult } from '../log/model/result.js';
import type { SeverityName } from '../log/model/severity.js';

/** One record's head line as read (redacted), with the lines of it worth showing. */
export interface CompareExample {
  example: string;
  /** Where the template's text starts in the example; -1 where unknown. */
  exampleTemplateAt: number;
  exampleMore: string[];
  exampleMoreLines: number;
  /** Its line in its run. */
  line: number;
}

/** A group on one side of the comparison. */
export interface SideGroup {
  severity: SeverityName;
  records: number;
  lines: number;
  firstLine: number;
  lastLine: number;
  firstTime: string | null;
  lastTime: string | null;
  template: string;
  /** Its first records' examples, one per exact template (a merged group's variants), first first. */
  examples: CompareExample[];
  /** Exact templates in the group on this side: more than examples when some are not shown. */
  variants: number;
}

/**
 * How a new entry relates to the baseline. `new`: nothing like it there. `words`: a
 * baseline group whose template differs in a few words became this one (`40 passed` ->
 * `38 passed, 2 failed`, `ok 2` -> `not ok 2`). `values`: the same template, written once
 * in each run, with values that differ (`# fail 0` -> `# fail 3`, a setting's value).
 */
export type ChangeKind = 'new' | 'words' | 'values';

export interface NewEntry extends SideGroup {
  rank: number;
  change: ChangeKind;
  /** For `words` and `values`: the baseline's group. */
  was?: SideGroup;
  /** For `words`: how alike the templates are (shared words, 0..1). */
  similarity?: number;
}

export interface RateEntry {
  rank: number;
  now: SideGroup;
  was: SideGroup;
  /** Records per 1,000 records of each run, rounded to 2 decimals (display only; the rule uses exact counts). */
  perThousandNow: number;
  perThousandWas: number;
  /** `up` or `down`, and by how many times (rounded to 1 decimal). */
  direction: 'up' | 'down';
  factor: number;
}

export interface SideRead {
  read: LogResult['read'];
  format: string;
  totals: { lines: number; records: number; groups: number };
}

export interface SectionCount {
  groups: number;
  records: number;
  lines: number;
}

/** The rules the comparison applied, stated in the result so a reader can check them. */
export interface CompareRules {
  matching: string;
  rate: { minFactor: number; minRecordsOff: number; text: string };
  words: { minSimilarity: number; minSharedWords: number; text: string };
  values: string;
}

export interface ComparisonResult {
  kind: 'comparison';
  now: SideRead;
  baseline: SideRead;
  rules: CompareRules;
  /** What only this run has, ranked by severity, then count, then first line. */
  new: SectionCount & { bySeverity: Partial<Record<SeverityName, number>>; shown: NewEntry[] };
  rateChanged: SectionCount & { shown: RateEntry[] };
  /** Baseline groups with nothing in this run (a group that changed words is under `new`). */
  gone: SectionCount & { shown: (SideGroup & { rank: number })[] };
  /** Groups in both runs at a like rate: counted, left out. Records and lines are this run's. */
  shared: SectionCount & { baselineRecords: number; baselineLines: number };
  notes: string[];
}

/** Two crash reports, compared by what crashed and where. */
export interface CrashComparison {
  kind: 'crash-comparison';
  now: { name: string; format: string; exception: string; frames: string[] };
  baseline: { name: string; format: string; exception: string; frames: string[] };
  sameException: boolean;
  /** Frames (image and symbol, no addresses) the faulting thread shows now and not in the baseline. */
  newFrames: string[];
  goneFrames: string[];
  /** The first frame index (from the top) at which the faulting threads differ; -1 when they match. */
  firstDifference: number;
}

export type CompareResult = ComparisonResult | CrashComparison;

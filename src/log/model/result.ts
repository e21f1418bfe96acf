import type { CrashReport } from '../../crash/index.js';
import type { SeverityName } from './severity.js';

/** One group as shown: everything in it has passed through redaction. */
export interface ShownGroup {
  rank: number;
  severity: SeverityName;
  /** Records: a head line and the lines that continue it. */
  count: number;
  /** Lines, continuation lines included. */
  lines: number;
  template: string;
  example: string;
  /** Where the template's text starts in the example; -1 where it is not a span of it. */
  exampleTemplateAt: number;
  /** Lines of the example record shown under it: those that carry its cause, else its first lines. */
  exampleMore: string[];
  /** Lines of the example record not shown. */
  exampleMoreLines: number;
  /** Where the example reports a failed step (`make: *** [...] Error 3`): the line printed just before it, which says why as often as not. */
  printedBefore?: string;
  /** For an error group merged from a few templates, their examples too. */
  also?: string[];
  firstLine: number;
  lastLine: number;
  firstTime: string | null;
  lastTime: string | null;
  /** With several inputs: where the group occurs (most records first, at most 5) and in how many inputs. */
  inputs?: { name: string; count: number }[];
  inputCount?: number;
  /** With several inputs: the input and line (in that input) of the group's first line. */
  firstAt?: { name: string; line: number };
  /** For an error or fault: the group that most often comes just before its records, when that beats chance. */
  precursor?: Precursor;
  /** A rare group shown for the burst it comes shortly before (ranking would leave it out). */
  rare?: RareReason;
  /** An error group shown first because it begins after every first-ranked group has ended: what the run ended with. */
  late?: LateReason;
  /** A one-off error shown before the ranked groups: recurring errors ranked above it begin shortly after it (a cascade's cause). */
  first?: FirstReason;
  /** What its placeholders held, where they held few values: `status=<NUM>` 503 x40, 502 x7. */
  values?: ShownValues[];
}

/** The group that most often comes just before an error's records, when it beats chance. */
export interface Precursor {
  severity: SeverityName;
  template: string;
  /** Error records it came before, of all the error's records. */
  count: number;
  of: number;
  /** Found on the same trace or request id, rather than as the record just before. */
  sameTrace: boolean;
}

/** Why a rare group is shown: the burst of errors it comes shortly before. */
export interface RareReason {
  /** The burst it comes before: its rank among the groups shown, its template and records. */
  beforeRank: number;
  burst: string;
  burstRecords: number;
  /** How long before the burst's first record: `3.2 s`, or `120 lines` where the log has no times. */
  lead: string;
  /** Words it shares with the burst's example (`'orders-ro'`), the strongest evidence. */
  shared: string[];
}

export interface FirstReason {
  /** How many recurring error groups rank above it and begin after it. */
  errorsAfter: number;
  /** How long before the first of the recurring ones began: `3.2 s`, or `12 lines`. */
  lead: string;
  /** Distinctive words it shares with them (`'HikariPool-1'`). */
  shared: string[];
}

export interface LateReason {
  /** The last line of the first-ranked groups begun before it: the group begins after it. */
  after: number;
}

/** One placeholder's values as shown: the most frequent, and how many others. */
export interface ShownValues {
  /** The template's token that holds the placeholder (`status=<NUM>`, `<*>`). */
  placeholder: string;
  values: { value: string; count: number }[];
  /** Distinct values not listed, and the records they cover. */
  others: number;
  otherRecords: number;
}

export interface InputRead {
  name: string;
  /** Bytes read (decompressed for gzip). */
  bytes: number;
  gzip: boolean;
  format: string;
  /** Line numbers of this input in the result: firstLine..firstLine+lines-1. */
  firstLine: number;
  lines: number;
  /** Could not be read (see LogRead.skippedInputs): none of it is in the result. */
  skipped?: true;
}

export interface SeverityCount {
  groups: number;
  lines: number;
}

/** What a run read: its inputs, in order, and what of them it skipped, cut or could not see. */
export interface LogRead {
  inputs: InputRead[];
  bytes: number;
  lines: number;
  /** Bytes of the head skipped to keep within maxBytes (0 when all was read). */
  skippedHeadBytes: number;
  /** Lines of 64 KiB or more, cut to 64 KiB. */
  cutLines: number;
  /** log show headers and footers, read but not log lines. */
  frameLines: number;
  /** Inputs that could not be read, and why: reported and left out. */
  skippedInputs: { name: string; reason: string }[];
  /** What the source could not see (another user's journal entries, ...). */
  notes: string[];
  /** Inputs that are crash reports, read as such: each is shown as a crash, apart from the log lines. */
  crashes?: CrashInput[];
  /** The last input's last lines, redacted, as `tail` would show them (more when they are its own ending: rank/ending.ts). */
  tail?: TailLine[];
  /** Where `tail` leaves out the routine run the input ends with: after which of its lines, and how many (rank/ending.ts). */
  tailLeftOut?: { afterLine: number; lines: number };
}

export interface LogResult {
  kind: 'log';
  read: LogRead;
  format: string;
  /** Log lines (read.lines less header and footer lines), records, distinct groups. */
  totals: { lines: number; records: number; groups: number };
  linesBySeverity: Record<SeverityName, number>;
  groups: ShownGroup[];
  /** A small input's lines as they are (redacted), shown whole instead of its groups. */
  whole?: string[];
  omitted: {
    groups: number;
    records: number;
    lines: number;
    bySeverity: Partial<Record<SeverityName, SeverityCount>>;
    /** Templates first seen after the group cap: counted, not kept. */
    overflowLines: number;
  };
}

/** A crash report among several inputs. */
export interface CrashInput {
  name: string;
  format: string;
  report: CrashReport;
}

/** A crash report is not a stream of lines: it comes back as its parsed fields. */
export interface CrashResult {
  kind: 'crash';
  read: { inputs: InputRead[]; bytes: number; lines: number };
  format: string;
  report: CrashReport;
}

export type CondenseResult = LogResult | CrashResult;

/** A line of the input as read (redacted), with its number. */
export interface TailLine {
  line: number;
  text: string;
}

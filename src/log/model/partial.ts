import type { Severity } from './severity.js';
import type { ValueCounts } from './values.js';

/** How many continuation lines of a group's first record travel with its example, where none carries a cause. */
export const EXAMPLE_CONTINUATION_LINES = 3;
/** At most this many lines that carry a record's cause are kept: the first two and the last ones. */
export const MAX_CAUSE_LINES = 8;
export const MAX_EXAMPLE_CHARS = 1000;
export const MAX_CONTINUATION_CHARS = 300;

/** One template's statistics over a span of input. Line numbers are 1-based. */
export interface GroupStat {
  /** Severity and template hash (`3:123456789`): the same text at two levels is two groups. */
  key: string;
  template: string;
  severity: Severity;
  /** Records (a head line and its continuation lines) in this group. */
  records: number;
  /** Lines, continuation lines included. */
  lines: number;
  firstLine: number;
  lastLine: number;
  firstTime: string;
  lastTime: string;
  /**
   * The head line of the group's first record, and the lines of that record shown under
   * it: those that carry its cause (exceptions, `Caused by:`, a panic's message, the
   * program's own frame), else its first lines. `exampleMoreLines` counts the rest.
   */
  example: string;
  /** Where the template's text starts in the example (its header, the time removed, follows); -1 unknown. */
  exampleTemplateAt: number;
  exampleMore: string[];
  exampleMoreLines: number;
  /**
   * The template of the program's own frame its records showed, where they showed one: part
   * of the key, so a group of the same text raised elsewhere (a ZeroDivisionError in
   * batch.py's compute_ratio, a service's in its own e_zero) stays apart when templates merge.
   */
  site?: string;
  /** Where the example reports a failed step (`make: *** [...] Error 3`): the line printed just before it, the step's last. */
  printedBefore?: string;
  /** For an error group merged from a few templates: the other templates' examples. */
  also?: string[];
  /** What each placeholder of the template held (values.ts), in the template's order. */
  values?: ValueCounts[];
  /** Records per input (by input index), kept when inputs are merged into one result. */
  perInput?: Record<number, number>;
}

/** Records past the group cap (MAX_GROUPS): counted, lines by severity, not kept. */
export interface Overflow {
  records: number;
  lines: number;
  bySeverity: number[];
}

/**
 * What a worker returns for one chunk of whole records. Line numbers are relative to the
 * chunk; the merger shifts them.
 */
export interface LogPartial {
  lines: number;
  /** Lines that are no log lines: log show headers and footers, blank lines before the first record. */
  skipped: number;
  /** Lines of MAX_LINE_BYTES or more, shown cut to that length. */
  cut: number;
  /** Records longer than MAX_RECORD_BYTES, cut there. */
  cutRecords?: number;
  /** In order of first appearance in the chunk. */
  groups: GroupStat[];
  /** The group of the chunk's last record: what the next chunk's first record follows. */
  last: string | null;
  /** Templates past the group cap: counted, not kept (a merged span's partial only). */
  overflow?: Overflow;
  /** What came before error and fault records, for precursors. */
  sequence?: Sequence;
}

/**
 * Which record came before each error or fault record: the one just before it, or the
 * one before it on the same trace or request id. Pairs whose predecessor lies in an
 * earlier chunk are left open for the merger, which knows what came before.
 */
export interface Sequence {
  /** Records in the span: a record's index (0-based, in the span) places it for TRACE_WINDOW. */
  records: number;
  /** [error group key, precursor group key, 1 if on the same trace else 0, count]. */
  pairs: [string, string, number, number][];
  /** An error record that is the chunk's first record and carries no trace. */
  firstError: string | null;
  /** Error records whose trace has no earlier record in the chunk: [trace hash, group key, key of the record just before or '', record index]. */
  openTraces: [number, string, string, number][];
  /** The last record per trace among the chunk's last TRACE_WINDOW records: [trace hash, group key, record index]. */
  traceLast: [number, string, number][];
}

/**
 * A record's predecessor on its trace counts when it is at most this many records back: a
 * precursor comes shortly before (a TLS downgrade comes milliseconds before the reset it causes). A window in records,
 * not a number of traces remembered, so that the answer does not depend on where chunks
 * were cut, and a chunk hands on only its last TRACE_WINDOW records' traces.
 */
export const TRACE_WINDOW = 500;

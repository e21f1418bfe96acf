/** What the detector decided about one input; fixed before any chunk is condensed. */
export type LogFormat = 'logshow' | 'logshow-compact' | 'logshow-json' | 'json' | 'timestamped' | 'plain';

export interface FormatInfo {
  format: LogFormat;
  /** A human name for the boundary line: "log show (default style)", "GitHub Actions", ... */
  label: string;
  /** Whether records start with a header (a timestamp, a log show row, a JSON object). */
  timestamped: boolean;
  /**
   * Whether the writer puts a header on every record it writes (log show, GitHub Actions),
   * so that a line without one can only continue a record. Elsewhere a line without a header
   * continues a record only where its shape says so (see records.ts).
   */
  strict: boolean;
  /** log show default style: whether rows carry the TTL column (macOS 10.13+). */
  hasTtl: boolean;
  /** `gh run view --log` lines start with `job<TAB>step<TAB>`: the timestamp follows two tabs. */
  leadingTabFields: number;
  /**
   * docker compose's `worker-1  | ` before every line: headers and record shapes are read
   * past it, templates keep it (the service is part of the event).
   */
  namePrefix?: true;
  /**
   * Each record's header line is followed by a line that begins with its level and holds
   * its message (java.util.logging's `Dec 03, 2026 2:23:32 PM Inventory main`, then `INFO:
   * synced SKU-20000`): the two are one record, the second its level and its template.
   */
  levelOnNextLine?: true;
  /**
   * Each record's header line holds no message (Erlang/OTP's `=ERROR REPORT==== 3-Dec-2026::16:26:38.970600 ===`):
   * the lines under it, to the next header, are its message, and the first is its template.
   * Such an input is strict: a line without a header continues a record.
   */
  messageOnNextLine?: true;
  /** The key of the trace or request ids the input's lines carry (`trace_id`, `req`), if any. */
  traceKey?: string;
  /** The token position of the log's own level column, if it has one. */
  levelColumn?: LevelColumn;
}

/** A log's level column, learned from its head (see parse/level-column.ts). */
export interface LevelColumn {
  /** Token index, 0-based, counted from the line's content (after a BOM and leading tab fields). */
  token: number;
  /** The column holds single letters (V D I W E F), not words. */
  letters: boolean;
}

export const PLAIN: FormatInfo = {
  format: 'plain',
  label: 'plain text',
  timestamped: false,
  strict: false,
  hasTtl: false,
  leadingTabFields: 0,
};

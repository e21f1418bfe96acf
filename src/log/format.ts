/** What the detector decided about one input; fixed before any chunk is condensed. */
export type LogFormat = 'logshow' | 'logshow-compact' | 'json' | 'timestamped' | 'plain';

export interface FormatInfo {
  format: LogFormat;
  /** A human name for the boundary line: "log show (default style)", "GitHub Actions", ... */
  label: string;
  /** Whether records start with a timestamp, so that a line without one continues the record. */
  timestamped: boolean;
  /** log show default style: whether rows carry the TTL column (macOS 10.13+). */
  hasTtl: boolean;
  /** `gh run view --log` lines start with `job<TAB>step<TAB>`: the timestamp follows two tabs. */
  leadingTabFields: number;
  /** The key of the trace or request ids the input's lines carry (`trace_id`, `req`), if any. */
  traceKey?: string;
}

export const PLAIN: FormatInfo = {
  format: 'plain',
  label: 'plain text',
  timestamped: false,
  hasTtl: false,
  leadingTabFields: 0,
};

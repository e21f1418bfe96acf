/**
 * The shape every crash-report parser fills in. The parsers fill it with the report's own
 * text; parseCrashReport redacts every string before it hands the report on.
 */

export interface CrashFrame {
  /** Position in the thread's backtrace, 0 = innermost. */
  index: number;
  /** Image (binary) name; "???" for an anonymous image. */
  image: string;
  /** Absolute address, lower-case hex with 0x and no padding. */
  address: string;
  /** "symbol + offset" when symbolicated, else "0ximagebase + offset" as Apple prints it. */
  symbol: string;
  /** "File.swift:42" when the report carries source positions. */
  source?: string;
}

export interface CrashException {
  type?: string;
  signal?: string;
  codes?: string;
  subtype?: string;
  /** Free text some reports add (`exception.message`, legacy `Exception Reason:`). */
  message?: string;
}

export interface CrashTermination {
  namespace?: string;
  /** Decimal for small codes, 0x-hex for large ones (0x8badf00d reads better than 2343432205). */
  code?: string;
  indicator?: string;
  /** `reasons[]` / `details[]` of an .ips, or the text after a legacy `Termination Reason:`. */
  reasons?: string[];
  /** Who killed the process, e.g. "exc handler", "runningboardd". */
  byProc?: string;
}

export interface CrashThread {
  /** Index of the thread in the report's thread list. */
  index: number;
  name?: string;
  queue?: string;
  /** The top frames, at most TOP_FRAMES of them. */
  frames: CrashFrame[];
  /** How many frames the thread had before the cap. */
  framesTotal: number;
}

export interface CrashReport {
  /**
   * 'ips': a file with a JSON header line (bug_type 309 JSON body, or 109 with a text body);
   * 'crash': a legacy text report without a header; 'ips-other': an .ips that is not the
   * crash of one process (jetsam, panic, stackshot, ...).
   */
  kind: 'ips' | 'crash' | 'ips-other';
  /** bug_type from the .ips header, when there is one. */
  bugType?: string;
  /** What that bug_type stands for, e.g. "jetsam event (memory pressure)". */
  bugTypeMeaning?: string;
  process?: string;
  path?: string;
  pid?: number;
  bundleId?: string;
  /** "1.0 (1)": short version, then build in parentheses, as Apple prints it. */
  version?: string;
  os?: string;
  exception?: CrashException;
  termination?: CrashTermination;
  /** Application-specific information, one entry per message ("image: message" for .ips). */
  asi?: string[];
  faultingThread?: CrashThread;
  /** Top frames of the uncaught ObjC/C++ exception's backtrace. */
  lastExceptionBacktrace?: CrashFrame[];
  /** Frame count of that backtrace before the cap. */
  lastExceptionBacktraceTotal?: number;
  timestamp?: string;
  incident?: string;
  /** What the parser noticed and the reader should know: fallbacks, omissions, oddities. */
  notes: string[];
}

/** Apple's own reports and most triage start from the top dozen frames. */
export const TOP_FRAMES = 12;

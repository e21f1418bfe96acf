import { MAX_LINE_BYTES } from '../../split/line-chunks.js';
import { WispError } from '../../core/errors.js';
import type { FormatInfo } from '../model/format.js';
import { latin1 } from '../parse/latin1.js';
import { LineParser, PREFIX_BYTES } from '../parse/line-parser.js';
import { ANSI, clip } from '../../core/text.js';
import { CAUSE_SHAPES, isIndentedGoFunction, isRuntimeFrame, Shape } from '../parse/line-shape.js';
import {
  EXAMPLE_CONTINUATION_LINES,
  MAX_CAUSE_LINES,
  MAX_CONTINUATION_CHARS,
  MAX_EXAMPLE_CHARS,
  type GroupStat,
  type LogPartial,
  type Sequence,
  TRACE_WINDOW,
} from '../model/partial.js';
import { MAX_RECORD_BYTES } from '../read/record-chunks.js';
import { LineClass, RecordReader, type ReadLine } from '../parse/records.js';
import { fromWords, Severity, SEVERITY_COUNT } from '../model/severity.js';
import { findId, idHash, type IdSpan } from '../parse/trace-id.js';
import { type CountedValue, ValueTally } from '../model/values.js';
import { screenLines } from '../../redact/screen.js';
import { epochToIso } from '../parse/timestamp.js';
import { GROUP, groupKey, groupSeverity, groupWord, type NativeChunk, nativePass, nativePassApplies, RECORD_WORDS, SEGMENT, segmentWord, TALLY_WORDS } from './native-chunk.js';

const NEWLINE = 10;
const CR = 13;

/**
 * Decodes at most about `chars` characters of bytes [s, e), without terminal colours,
 * marking a cut with `…`.
 */
export function textOf(buf: Buffer, s: number, e: number, chars: number): string {
  const end = Math.min(e, s + chars * 4);
  let text = buf.toString('utf8', s, end);
  if (text.includes('\x1b') || text.includes('^[[')) text = text.replace(ANSI, '');
  return text.length > chars ? `${text.slice(0, chars)}…` : end < e ? `${text}…` : text;
}

/** A line kept by position until its record ends: its text is made only if it is shown. */
interface KeptLine {
  buf: Buffer;
  s: number;
  e: number;
  /** Its line number, to show kept lines in the record's order. */
  no: number;
}

/**
 * Lines under a record's head that say what went wrong without the shape of a cause:
 * an assertion's expected and actual values, a diff's lines, node's `actual !== expected`,
 * a line that names an exception or uses error words. Shown where there is room beside the
 * cause lines.
 */
const ASSERT_DETAIL = /^\s*(?:(?:Expected|Received|expected|received|Actual|actual|left|right|got|want|Difference|Which is)\b[^:]{0,40}:|[-+] {0,24}[^\s\-+]|[^\s=!]+ !==? [^\s=!]+\s*$)/;
/** Words of an assertion's report: under them, a diff line is a failed assertion's. */
const GOT_WANT = /\b(?:want|wanted|got|expected|actual)\b/;
/** Where a compiler's diagnostic points, on a line of its own (rustc's `  --> billing/src/lib.rs:4:28`). */
const POINTS_AT = /^\s*--> \S+:\d+(?::\d+)?\s*$/;
const ASSERTION_WORDS = /\b(?:[Ee]xpected|[Rr]eceived|[Aa]ctual|left|right)\b/;
const EXCEPTION_NAME = /\b[A-Z][A-Za-z]*(?:Error|Exception)\b/;
/** The input a crashed server was handling: Erlang/OTP's `** Last message in was {convert,120,<<"CHF">>}`. */
const IN_FLIGHT = /^\*\* Last message in was /;
const MAX_DETAIL_LINES = 6;
/**
 * The fields of a ValidationError that key its record's group and are named in its
 * template: a payload rejected for another field is another event, whatever its head says.
 */
const MAX_KEYED_FIELDS = 12;
/** Placeholders whose values are tallied, per template. */
export const MAX_PLACEHOLDERS = 64;

/**
 * Which continuation line names a record's root cause, best first: the last exception or
 * `Caused by:` (a chain's root), a failed assertion (pytest's `E` line, an expected/actual
 * or diff line), a panic's message on the line its head announced, a diagnostic or a
 * compiler's label under the code it marks.
 */
const RootRank = { Exception: 0, Assertion: 1, Message: 2, Diagnostic: 3, None: 9 } as const;

/**
 * The record being read: its head, its lines so far, and the lines that carry its cause.
 * It joins a group when it ends, because its lines can raise its severity (an exception
 * under a line that declared no level), name the group's root cause, and decide which of
 * them are worth showing.
 */
class OpenRecord {
  open = false;
  key = 0;
  severity: Severity = Severity.Info;
  declared = false;
  /** The most severe form among its continuation lines (an exception, a failed assertion). */
  raised: Severity = Severity.Debug;
  time = '';
  head: KeptLine = { buf: Buffer.alloc(0), s: 0, e: 0, no: 0 };
  /** The head's position in the chunk (for trace ids), and how it was read. */
  chunkS = 0;
  chunkE = 0;
  isHeader = false;
  opener: Severity | undefined;
  templateAt = 0;
  /** The head's placeholders: [from, to) pairs into phBuf, and how many. */
  readonly ph = new Int32Array(2 * MAX_PLACEHOLDERS);
  phCount = 0;
  phBuf: Buffer = Buffer.alloc(0);
  firstLine = 0;
  lines = 0;
  /** Cause lines (exceptions, `Caused by:`, pytest's `E` lines, a panic's message): the first two and the last ones. */
  causes: KeptLine[] = [];
  /** The line that names the root cause: part of the group's key (see RootRank). */
  root: KeptLine | undefined;
  #rootRank: number = RootRank.None;
  /** Detail lines (ASSERT_DETAIL, error words, a line announcing a cause): the first few. */
  details: KeptLine[] = [];
  /**
   * Lines whose error word is only their prefix (`npm error While resolving: ...`, under
   * `npm error code ERESOLVE`): the first few, shown where the details leave room.
   */
  #prefixedOnly: KeptLine[] = [];
  /** The fields' paths a ValidationError's message lists (RecordReader.isField), the first MAX_KEYED_FIELDS: part of the group's key. */
  fields: KeptLine[] = [];
  /** The program's first frame after the last cause line (the innermost own frame for Python), with the line under it. */
  frame: KeptLine | undefined;
  frameDetail: KeptLine | undefined;
  #frameIndent = 0;
  #frameOpen = false;
  /** The last line was a frame of the runtime or a library, at this indentation (-1: it was not): the line indented under it is its source. */
  #runtimeFrameIndent = -1;
  #earlierFrame: KeptLine | undefined;
  #earlierDetail: KeptLine | undefined;
  /**
   * Python prints a chain's earlier exceptions first: the program's frame in the traceback
   * before the last chain marker is where the exception the last one wraps was raised,
   * shown beside the last traceback's.
   */
  #chainRootFrame: KeptLine | undefined;
  #chainRootDetail: KeptLine | undefined;
  #pythonFrame = false;
  /** The line before, when it is an indented Go function's (the race detector's stacks): the frame, if its file is the program's. */
  #goFunction: KeptLine | undefined;
  /** The first continuation lines, shown where no line carries a cause. */
  first: KeptLine[] = [];
  /** The head announced more (`panicked at src/main.rs:5:13:`): its next line is its message. */
  #announced = false;
  /** The last non-blank line, while it announces more: a cause's introduction. */
  #announcing: KeptLine | undefined;
  /** The record speaks of expected and actual values (undefined: its head not looked at yet). */
  #assertionReport: boolean | undefined;
  /** Whether a line that says where the diagnostic points has been kept (POINTS_AT). */
  #pointed = false;
  /** The line before was an assertion's label with its value on the next line (TAP's `expected: |-`): that line is a detail. */
  #valueNext = false;
  /** For a head that reports a failed step (RecordReader.reportsFailedStep): the line printed before it, the step's last. */
  before: KeptLine | undefined;

  #keep(l: ReadLine): KeptLine {
    return { buf: l.buf, s: l.s, e: l.e, no: this.firstLine + this.lines - 1 };
  }

  begin(reader: RecordReader, lineNo: number, chunkS: number, chunkE: number): void {
    const p = reader.parser;
    this.open = true;
    this.key = p.scanner.key();
    this.severity = p.severity;
    this.declared = p.declared;
    this.raised = Severity.Debug;
    this.time = p.time;
    this.firstLine = lineNo;
    this.lines = 1;
    // Most records are one line: their head and lists are reused, not made anew (a
    // record's lines are read only until it joins its group, in finish()).
    const head = this.head;
    const line = reader.line;
    head.buf = line.buf;
    head.s = line.s;
    head.e = line.e;
    head.no = lineNo;
    this.chunkS = chunkS;
    this.chunkE = chunkE;
    this.isHeader = reader.isHeader;
    this.opener = reader.opener;
    this.templateAt = p.templateAt;
    this.phCount = p.scanner.placeholders(this.ph);
    this.phBuf = p.scanner.buffer;
    if (this.causes.length > 0) this.causes.length = 0;
    this.root = undefined;
    this.#rootRank = RootRank.None;
    if (this.details.length > 0) this.details.length = 0;
    if (this.#prefixedOnly.length > 0) this.#prefixedOnly.length = 0;
    if (this.fields.length > 0) this.fields.length = 0;
    this.frame = undefined;
    this.frameDetail = undefined;
    this.#earlierFrame = undefined;
    this.#earlierDetail = undefined;
    this.#chainRootFrame = undefined;
    this.#chainRootDetail = undefined;
    this.#frameOpen = false;
    this.#pythonFrame = false;
    this.#goFunction = undefined;
    if (this.first.length > 0) this.first.length = 0;
    this.#announced = endsWithColon(reader.line);
    this.#announcing = undefined;
    this.#assertionReport = undefined;
    this.#pointed = false;
    this.#runtimeFrameIndent = -1;
    this.#valueNext = false;
    this.before = undefined;
  }

  /**
   * The level line under the record's header line (FormatInfo.levelOnNextLine): the record
   * takes its level, template and example from it, and keeps the header's line and time.
   */
  adoptLevelLine(reader: RecordReader, chunkE: number): void {
    const { firstLine, time, chunkS } = this;
    this.begin(reader, firstLine, chunkS, chunkE);
    this.time = time;
    this.lines = 2;
  }

  /** A continuation line (blank lines included: `blank`). */
  add(reader: RecordReader, blank: boolean): void {
    this.lines++;
    const goFunction = this.#goFunction;
    this.#goFunction = undefined;
    if (blank) return;
    const line = reader.line;
    const shape = reader.shape.shape;
    const underRuntimeFrame = this.#runtimeFrameIndent >= 0 && reader.indent > this.#runtimeFrameIndent;
    this.#runtimeFrameIndent = -1;
    if (this.#frameOpen) {
      this.#frameOpen = false;
      if (reader.indent > this.#frameIndent) this.frameDetail = this.#keep(line);
    }
    const announced = this.#announced;
    this.#announced = false;
    const announcing = this.#announcing;
    this.#announcing = undefined;
    const valueNext = this.#valueNext;
    this.#valueNext = false;
    if (this.first.length < EXAMPLE_CONTINUATION_LINES) this.first.push(this.#keep(line));
    if (reader.isField && this.fields.length < MAX_KEYED_FIELDS) this.fields.push(this.#keep(line));
    const isMessage = announced && !(shape & Shape.Frame);
    if (shape & (CAUSE_SHAPES | Shape.Chain | Shape.ReportCause) || isMessage || (shape & Shape.TraceMark && line.buf[line.s] === 91 /* [signal */)) {
      const kept = this.#keep(line);
      // A checker's report has one stack per section (the access, the other access, where the
      // memory was freed): each section's own frame is kept, not only the last one's.
      if (shape & Shape.ReportCause && this.frame !== undefined) {
        this.#detail(this.frame);
        if (this.frameDetail !== undefined) this.#detail(this.frameDetail);
      }
      if (shape & Shape.Chain) {
        this.#chainRootFrame = this.frame ?? this.#earlierFrame;
        this.#chainRootDetail = this.frame !== undefined ? this.frameDetail : this.#earlierDetail;
      }
      this.#cause(kept);
      if (announcing !== undefined) this.#detail(announcing);
      if (shape & (Shape.Exception | Shape.Cause)) {
        this.#pythonFrame = false;
        this.#rootCandidate(kept, RootRank.Exception);
      } else if (shape & Shape.PytestDetail) {
        this.#rootCandidate(kept, RootRank.Assertion);
      } else if (isMessage || shape & Shape.ReportCause) {
        this.#rootCandidate(kept, RootRank.Message);
      }
      if (shape & CAUSE_SHAPES && Severity.Error < this.raised) this.raised = Severity.Error;
      return;
    }
    // What a compiler or linter says is wrong under the code it marks: shown, and the
    // record's root where nothing names one better: two `mismatched types` errors are two
    // events when their labels differ (`expected u64, found f64`).
    if (shape & Shape.ExcerptLabel) {
      const kept = this.#keep(line);
      this.#cause(kept);
      this.#rootCandidate({ ...kept, s: labelStart(kept) }, RootRank.Diagnostic);
      // A label that names its level (`SC2045 (error): ...`) decides a head that names none.
      const words = fromWords(latin1(line.buf, line.s, Math.min(line.e, line.s + PREFIX_BYTES)));
      if (words < this.raised) this.raised = words;
      return;
    }
    // The rest of a sanitizer's report (where the memory was allocated, the shadow bytes) is shown only as its lines' count.
    if (shape & Shape.Report) return;
    // Native frames under a line that declared no level: a memory checker's report or a crash's.
    if (shape & Shape.NativeFrame && Severity.Error < this.raised) this.raised = Severity.Error;
    const isFrame = (shape & Shape.Frame) !== 0 || (shape & Shape.TraceMark && line.buf[line.s] !== 103 /* goroutine */ && line.buf[line.s] !== 115 /* stack */ && line.buf[line.s] !== 45 /* ----- Native stack trace */ && line.buf[line.s] !== 69 /* Emitted 'error' event */);
    if (!isFrame) {
      // A library's source line under its frame (pytest's `    raise exception` in pluggy)
      // says nothing of this error, whatever its words.
      if (underRuntimeFrame) return;
      // Words are read without terminal colours, as the line's shape was.
      const uncoloured = reader.uncolouredText();
      const text = uncoloured ?? latin1(line.buf, line.s, Math.min(line.e, line.s + PREFIX_BYTES));
      // A line prefixed as the one before it (`npm error `) says trouble by its own words,
      // past that prefix: the prefix's word is every line's. The prefix alone is a blank
      // line of the message.
      const prefixed = reader.prefixBytes > 0;
      if (prefixed && reader.prefixBytes >= (uncoloured?.length ?? line.e - line.s)) return;
      const said = !prefixed ? text : uncoloured !== undefined ? uncoloured.slice(reader.prefixBytes) : latin1(line.buf, line.s + reader.prefixBytes, Math.min(line.e, line.s + reader.prefixBytes + PREFIX_BYTES));
      // The place the diagnostic is about is shown: the first the record names.
      if (!this.#pointed && POINTS_AT.test(text)) {
        this.#pointed = true;
        this.#detail(this.#keep(line));
      }
      // What a server adds to an error under the same header (PostgreSQL's `DETAIL:  Key ... already exists.`),
      // and the rest of a Python exception's message (SQLAlchemy's `[SQL: ...]`).
      if (reader.saysMoreOfError || reader.continuesException) this.#detail(this.#keep(line));
      // A diagnostic under a head (go test's `slug_test.go:21: got x, want y`) names what
      // the record is about, without raising it: passing runs print them too.
      if (shape & Shape.Diagnostic || reader.explainsContext) {
        this.#rootCandidate(this.#keep(line), RootRank.Diagnostic);
        // ...unless it says what was wanted and what came: a failed check (`got x, want y`).
        if (GOT_WANT.test(text) && Severity.Error < this.raised) this.raised = Severity.Error;
      }
      const marker = (shape & (Shape.Chain | Shape.Traceback)) !== 0;
      const assertion = ASSERT_DETAIL.test(text);
      if (assertion) this.#rootCandidate(this.#keep(line), RootRank.Assertion);
      // The head is looked at only for records with continuation lines: most have none.
      this.#assertionReport ??= ASSERTION_WORDS.test(latin1(this.head.buf, this.head.s, Math.min(this.head.e, this.head.s + PREFIX_BYTES)));
      if (ASSERTION_WORDS.test(text)) this.#assertionReport = true;
      // Where the head declared no level, the words of the whole record decide it, and a
      // failed assertion's report (expected and actual values, a diff under them) is an error.
      let words = marker ? Severity.Info : fromWords(said);
      if (assertion && this.#assertionReport) words = Math.min(words, Severity.Error) as Severity;
      if (words < this.raised) this.raised = words;
      const troubled = words <= Severity.Error;
      if (!marker && (valueNext || assertion || troubled || EXCEPTION_NAME.test(said) || IN_FLIGHT.test(text))) this.#detail(this.#keep(line));
      else if (prefixed && this.#prefixedOnly.length < MAX_DETAIL_LINES && fromWords(text) <= Severity.Error) this.#prefixedOnly.push(this.#keep(line));
      if (endsWithColon(line) || text.trimEnd().endsWith('|-')) {
        this.#announcing = this.#keep(line);
        // What a prefixed failure's line announces is what failed (`npm error Could not
        // resolve dependency:`, then the dependency). Elsewhere too many lines say so with
        // a colon (a Python exception group's `| During handling of the above exception ...:`).
        this.#valueNext = assertion || (troubled && prefixed);
      } else if (reader.indent > 0 && line.buf[line.e - 1] === 41 /* ) */ && isIndentedGoFunction(text)) this.#goFunction = this.#keep(line);
      return;
    }
    if (!reader.isOwnFrame()) {
      this.#runtimeFrameIndent = reader.indent;
      return;
    }
    if (startsAfterBlanks(line, 24, '...')) return;
    const python = startsAfterBlanks(line, 16, 'File "');
    // Python prints the innermost frame last: keep the last own one; elsewhere the first after the cause.
    if (python || this.frame === undefined) {
      // A Go file's line under its function's: the function is the frame, the file its detail.
      const under = goFunction !== undefined && shape & Shape.NativeFrame;
      this.frame = under ? goFunction : this.#keep(line);
      this.#frameIndent = reader.indent;
      this.frameDetail = under ? this.#keep(line) : undefined;
      this.#frameOpen = !under;
      this.#pythonFrame = python;
    } else if (this.frameDetail === undefined && goFunction === undefined) {
      // A frame with no line of its own under it (`at loadConfig (worker.js:11:15)`, an
      // ASan report's `#1 ... in format_header x.c:4`): the next own frame is its caller,
      // where the program went wrong as often as in the innermost.
      this.frameDetail = this.#keep(line);
    }
  }

  /** The last exception wins (the root of a chain); of the other ranks, the first. */
  #rootCandidate(line: KeptLine, rank: number): void {
    if (rank < this.#rootRank || (rank === RootRank.Exception && this.#rootRank === RootRank.Exception)) {
      this.root = line;
      this.#rootRank = rank;
    }
  }

  #cause(line: KeptLine): void {
    if (this.causes.length >= MAX_CAUSE_LINES) this.causes.splice(2, 1);
    this.causes.push(line);
    // A cause restarts the frame search: the frame worth showing is the one nearest the
    // root cause; the one found so far stays where none follows.
    if (!this.#pythonFrame && this.frame !== undefined) {
      this.#earlierFrame = this.frame;
      this.#earlierDetail = this.frameDetail;
      this.frame = undefined;
      this.frameDetail = undefined;
      this.#frameOpen = false;
    }
  }

  #detail(line: KeptLine): void {
    const last = this.details[this.details.length - 1];
    if (this.details.length < MAX_DETAIL_LINES && (last === undefined || last.no !== line.no)) this.details.push(line);
  }

  /** The program's own frame shown under the head, if any: the one nearest the root cause. */
  ownFrame(): KeptLine | undefined {
    return this.frame ?? this.#earlierFrame;
  }

  /** The severity it ends with: raised by its lines only where its head declared none. */
  finalSeverity(): Severity {
    return !this.declared && this.raised < this.severity ? this.raised : this.severity;
  }

  /**
   * The lines shown under the head, in the record's order: cause lines, then details where
   * there is room, and the program's frame; else the first lines.
   */
  shownLines(): string[] {
    let picked: KeptLine[];
    if (this.causes.length > 0 || this.details.length > 0 || this.#prefixedOnly.length > 0 || this.frame !== undefined || this.#earlierFrame !== undefined) {
      const causeNos = new Set(this.causes.map((l) => l.no));
      const room = Math.max(0, MAX_CAUSE_LINES - this.causes.length);
      const details = this.details.length < MAX_DETAIL_LINES ? [...this.details, ...this.#prefixedOnly].slice(0, MAX_DETAIL_LINES) : this.details;
      picked = [...this.causes, ...details.filter((l) => !causeNos.has(l.no)).slice(0, room)];
      const frame = this.ownFrame();
      const detail = this.frame !== undefined ? this.frameDetail : this.#earlierDetail;
      if (frame !== undefined) picked.push(frame);
      if (detail !== undefined) picked.push(detail);
      if (this.#chainRootFrame !== undefined && this.#chainRootFrame.no !== frame?.no) {
        picked.push(this.#chainRootFrame);
        if (this.#chainRootDetail !== undefined) picked.push(this.#chainRootDetail);
      }
      // Every field a ValidationError lists is named, where its errors are too many to show.
      picked.push(...this.fields);
    } else {
      picked = this.first;
    }
    picked.sort((a, b) => a.no - b.no);
    return picked.filter((l, i) => i === 0 || picked[i - 1]!.no !== l.no).map((l) => textOf(l.buf, l.s, l.e, MAX_CONTINUATION_CHARS));
  }
}

/**
 * Whether the line's first `window` bytes, past their leading blanks, begin with `ascii`:
 * latin1(...).trimStart().startsWith(ascii), read from the bytes without making strings (a
 * record's every frame line asks). The blanks are those trimStart takes in latin1 text:
 * tab to carriage return, space, and 0xA0.
 */
function startsAfterBlanks(l: ReadLine, window: number, ascii: string): boolean {
  const end = Math.min(l.e, l.s + window);
  let i = l.s;
  while (i < end && isTrimmedBlank(l.buf[i]!)) i++;
  if (i + ascii.length > end) return false;
  for (let k = 0; k < ascii.length; k++) if (l.buf[i + k] !== ascii.charCodeAt(k)) return false;
  return true;
}

const isTrimmedBlank = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0;

function endsWithColon(l: ReadLine): boolean {
  let i = l.e - 1;
  while (i >= l.s && (l.buf[i] === 32 || l.buf[i] === 9)) i--;
  return i >= l.s && l.buf[i] === 58 /* : */;
}

/** Sees each record as it joins its group: its first line (in the chunk), its lines, its group key. */
export type RecordHook = (firstLine: number, lines: number, key: string) => void;

export interface CondenseChunkOptions {
  /** Sees each record as it joins its group; every line is then read here, none by the native pass. */
  onRecord?: RecordHook;
  /** Whether the native pass reads the records that are one header line (default: where the format allows, nativePassApplies); the partial is the same either way. */
  nativePass?: boolean;
}

/**
 * Condenses one chunk of whole records (UTF-8 bytes; the chunk starts where a record must
 * start, see records.ts) into a partial result. Pure: the same bytes and format give the
 * same partial in a worker or in the main thread.
 */
export function condenseChunk(buf: Buffer, info: FormatInfo, options: CondenseChunkOptions = {}): LogPartial {
  // Every line screened for secrets in one native call, before any is read.
  const screen = screenLines(buf, 0, buf.length);
  // Where a record hook sees every record, or the format's records are read otherwise, every line is read here.
  const native = options.onRecord === undefined && options.nativePass !== false && nativePassApplies(info) ? nativePass(buf, info, screen, MAX_LINE_BYTES) : undefined;
  return condenseScreened(buf, info, screen, native, options.onRecord);
}

/**
 * condenseChunk once the chunk's lines are screened (`screen`: one byte a line, 1 where it
 * may hold a secret) and its native pass, if any, has run: the lines it left are read here.
 */
export function condenseScreened(buf: Buffer, info: FormatInfo, screen: Uint8Array, native: NativeChunk | undefined, onRecord?: RecordHook): LogPartial {
  if (native !== undefined && onRecord !== undefined) throw new WispError('WISP_INTERNAL', 'a record hook sees every record: none may be read natively');
  const reader = new RecordReader(info);
  const groups = new GroupTable(info);
  const rec = new OpenRecord();
  let lineNo = 0;
  let skipped = 0;
  let cut = 0;
  let cutRecords = 0;
  /** The key of the last record's group. */
  let last: string | undefined;
  // Where every line is read here, every record's id is read as it comes (SequenceRecorder).
  const sequence = new SequenceRecorder(buf, info.traceKey === undefined ? undefined : Buffer.from(info.traceKey), native === undefined);
  const finish = (): void => {
    if (!rec.open) return;
    const g = groups.add(rec);
    onRecord?.(rec.firstLine, rec.lines, g.key);
    sequence.record(g.key, g.severity, last, rec.chunkS, rec.chunkE);
    last = g.key;
    rec.open = false;
  };

  // The last non-blank line read (as read: redacted where needed), and, where it was the
  // head of a failed step's report, the line that report showed: a make that fails after
  // its sub-make failed points to what the recipe printed, not to the sub-make's report.
  let beforeBuf: Buffer | undefined;
  let beforeS = 0;
  let beforeE = 0;
  let beforeNo = 0;
  let beforeShown: KeptLine | undefined;
  const remember = (line: ReadLine, no: number, shown: KeptLine | undefined): void => {
    beforeBuf = line.buf;
    beforeS = line.s;
    beforeE = line.e;
    beforeNo = no;
    beforeShown = shown;
  };
  const length = buf.length;

  /** Reads `count` lines from byte `from` (a chunk ends with a newline unless it holds the input's last line). */
  const readLines = (from: number, count: number): void => {
    let start = from;
    for (let k = 0; k < count && start < length; k++) {
      let nl = buf.indexOf(NEWLINE, start);
      if (nl < 0) nl = length;
      let end = nl;
      if (end > start && buf[end - 1] === CR) end--;
      const s = start;
      start = nl + 1;
      lineNo++;
      if (end - s >= MAX_LINE_BYTES) cut++;

      const secret = screen[lineNo - 1] === 1;
      let cls = reader.read(buf, s, end, secret);
      if (cls === LineClass.Continue && s - rec.chunkS >= MAX_RECORD_BYTES) {
        // A record this long is cut, as recordChunks cuts one that spans chunks: the line
        // starts a record as a chunk's first line would.
        cutRecords++;
        reader.reset();
        cls = reader.read(buf, s, end, secret);
      }
      if (cls === LineClass.Continue) {
        const blank = reader.indent < 0;
        if (reader.isLevelLine) rec.adoptLevelLine(reader, end);
        else rec.add(reader, blank);
        if (!blank) remember(reader.line, lineNo, undefined);
        continue;
      }
      if (cls === LineClass.Start) {
        finish();
        rec.begin(reader, lineNo, s, end);
        const failedStep = beforeBuf !== undefined && reader.reportsFailedStep();
        if (failedStep) rec.before = beforeShown ?? { buf: beforeBuf!, s: beforeS, e: beforeE, no: beforeNo };
        remember(reader.line, lineNo, failedStep ? rec.before : undefined);
        continue;
      }
      // Skip (log show's frame lines) and blank lines before any record: not log lines.
      finish();
      skipped++;
    }
  };

  if (native === undefined) {
    readLines(0, Number.POSITIVE_INFINITY);
    finish();
  } else {
    // The records the native pass read, in input order, between the segments of lines read
    // here. A segment after such a record starts with a header line that declares its level,
    // which starts a record whatever came before it, or with one that declares none after a
    // record that names no warning or worse, which starts one there too: the reader starts
    // afresh there.
    const keys = nativeKeys(native);
    // Each group's severity, read once: a chunk has hundreds of thousands of records and a few groups.
    const severities = Array.from({ length: native.groups }, (_, g) => groupSeverity(native, g));
    const nativeRecords = (from: number, to: number): void => {
      const w = native.w;
      for (let r = from; r < to; r++) {
        const at = native.recordsAt + r * RECORD_WORDS;
        const g = w[at + 2]!;
        sequence.record(keys[g]!, severities[g]!, last, w[at]!, w[at + 1]!);
        last = keys[g];
      }
    };
    let r = 0;
    for (let k = 0; k < native.segments; k++) {
      const before = segmentWord(native, k, SEGMENT.recordsBefore);
      nativeRecords(r, before);
      r = before;
      lineNo = segmentWord(native, k, SEGMENT.firstLine) - 1;
      reader.reset();
      readLines(segmentWord(native, k, SEGMENT.start), segmentWord(native, k, SEGMENT.lines));
      // The line after a segment starts a record read natively (or the chunk ends).
      finish();
    }
    nativeRecords(r, native.records);
    lineNo = native.lines;
    groups.merge(native, buf, keys);
  }
  return {
    lines: lineNo,
    skipped,
    cut,
    cutRecords,
    groups: groups.finished(),
    last: last ?? null,
    sequence: sequence.result(),
  };
}

/** Each native group's key, as GroupStat.key writes it. */
function nativeKeys(native: NativeChunk): string[] {
  const keys = new Array<string>(native.groups);
  for (let g = 0; g < native.groups; g++) keys[g] = `${groupSeverity(native, g)}:${groupKey(native, g)}`;
  return keys;
}

/** A pair of groups one after the other (Sequence.pairs): the group, the group before it, 1 on the same trace, and how often. */
type PairCount = [string, string, number, number];

/** Records kept for the trace window: a power of two above TRACE_WINDOW + 1. */
const RING_SIZE = 1024;
const RING_MASK = RING_SIZE - 1;

/**
 * Error and fault records and what came before them (see Sequence). Lines are searched
 * for a trace id only where it matters: an error's line, the lines before it that hold
 * the same id, and the chunk's last TRACE_WINDOW records (a later chunk's errors may
 * follow them). A log full of ids but with few errors pays next to nothing.
 */
class SequenceRecorder {
  /** Each (group, group before it, same trace) pair and its count, in the order first seen. */
  readonly #pairs: PairCount[] = [];
  /**
   * The same pairs by group, then by the group before (a slot per sameTrace): a record
   * finds its pair without a key made for it (a log of errors made one a record).
   */
  readonly #pairIndex = new Map<string, Map<string, (PairCount | undefined)[]>>();
  readonly #openTraces: [number, string, string, number][] = [];
  #firstError: string | null = null;
  #records = 0;
  /**
   * The last records' line start and end and group, at record index & RING_MASK: only
   * the last TRACE_WINDOW records are looked at again, so a chunk's records are not all kept.
   */
  readonly #starts = new Float64Array(RING_SIZE);
  readonly #ends = new Float64Array(RING_SIZE);
  readonly #keys: string[] = new Array<string>(RING_SIZE);
  readonly #buf: Buffer;
  readonly #key: Buffer | undefined;
  readonly #span: IdSpan = { start: -1, end: -1 };
  readonly #other: IdSpan = { start: -1, end: -1 };
  /**
   * Where every record's own id is read as it comes (`eager`): its span per ring slot, and
   * the latest record of each id's hash, so that an error's earlier record on its trace is
   * one lookup, not a search back through the window's bytes (a log of errors with unique
   * request ids searched the whole window for each).
   */
  readonly #eager: boolean;
  readonly #idStarts = new Float64Array(RING_SIZE);
  readonly #idEnds = new Float64Array(RING_SIZE);
  readonly #latest = new Map<number, number>();

  /**
   * `eager`: read every record's id (where every record is read here anyway, the cost is
   * small beside it); else only an error's, and an error's earlier record is searched for.
   */
  constructor(buf: Buffer, key: Buffer | undefined, eager: boolean) {
    this.#buf = buf;
    this.#key = key;
    this.#eager = eager && key !== undefined;
  }

  /** A record of group `key` at bytes [s, e) of the chunk, after one of group `previous`. */
  record(key: string, severity: Severity, previous: string | undefined, s: number, e: number): void {
    const index = this.#records++;
    const slot = index & RING_MASK;
    this.#starts[slot] = s;
    this.#ends[slot] = e;
    this.#keys[slot] = key;
    if (this.#eager) {
      const own = findId(this.#buf, s, e, this.#key!, this.#span);
      this.#idStarts[slot] = own.start;
      this.#idEnds[slot] = own.end;
      const hash = own.start >= 0 ? idHash(this.#buf, own) : 0;
      if (severity <= Severity.Error) this.#traced(key, previous, index, own.start >= 0 ? own : undefined, hash);
      if (hash !== 0) this.#latest.set(hash, index);
      return;
    }
    if (severity > Severity.Error) return;
    const span = this.#key === undefined ? undefined : findId(this.#buf, s, e, this.#key, this.#span);
    this.#traced(key, previous, index, span !== undefined && span.start >= 0 ? span : undefined, 0);
  }

  /** An error record at `index`, with its id where it has one (and, eagerly, that id's hash). */
  #traced(key: string, previous: string | undefined, index: number, span: IdSpan | undefined, hash: number): void {
    if (span !== undefined) {
      const before = this.#eager ? this.#latestOnTrace(index, span, hash) : this.#earlierOnTrace(index, span);
      if (before !== undefined) {
        this.#pair(key, before, 1);
        return;
      }
      if (index < TRACE_WINDOW) {
        this.#openTraces.push([idHash(this.#buf, span), key, previous ?? '', index]);
        return;
      }
    }
    if (previous !== undefined) this.#pair(key, previous, 0);
    else if (index === 0 && span === undefined) this.#firstError = key;
  }

  /**
   * The group of the nearest earlier record in the window whose own id is the same, from
   * the latest record of the id's hash (#earlierOnTrace where the hash is another id's).
   */
  #latestOnTrace(index: number, span: IdSpan, hash: number): string | undefined {
    const r = this.#latest.get(hash);
    if (r === undefined || r < index - TRACE_WINDOW) return undefined;
    const slot = r & RING_MASK;
    const a = this.#idStarts[slot]!;
    const b = this.#idEnds[slot]!;
    const buf = this.#buf;
    if (b - a === span.end - span.start && buf.compare(buf, span.start, span.end, a, b) === 0) return this.#keys[slot];
    return this.#earlierOnTrace(index, span);
  }

  /** The group of the nearest earlier record in the window whose id is the same: found by the id's bytes. */
  #earlierOnTrace(index: number, span: IdSpan): string | undefined {
    const buf = this.#buf;
    const id = buf.subarray(span.start, span.end);
    const first = Math.max(0, index - TRACE_WINDOW);
    const floor = this.#starts[first & RING_MASK]!;
    const own = this.#starts[index & RING_MASK]!;
    if (index === 0 || own === 0) return undefined;
    // Searched in the window's bytes alone: a search back from the record through the whole
    // buffer cost a chunk's length for every error whose id the window lacks (a JSON log of
    // errors with request ids read at 3 MB/s). The id holds no newline, so an occurrence that
    // starts before the record's line ends before it.
    const window = buf.subarray(floor, own);
    // A negative offset would make lastIndexOf count from the window's end: stop at 0.
    for (let at = window.lastIndexOf(id); at >= 0; at = at > 0 ? window.lastIndexOf(id, at - 1) : -1) {
      const pos = floor + at;
      const r = this.#recordAt(pos, first, index - 1) & RING_MASK;
      // The id must be that record's own id, not a mention of it.
      const other = findId(buf, this.#starts[r]!, this.#ends[r]!, this.#key!, this.#other);
      if (other.start === pos && other.end === span.end - span.start + pos) return this.#keys[r];
    }
    return undefined;
  }

  /** The record (between lo and hi) whose line holds byte `pos`. */
  #recordAt(pos: number, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid & RING_MASK]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #pair(key: string, before: string, sameTrace: number): void {
    if (before === key) return;
    let byBefore = this.#pairIndex.get(key);
    if (byBefore === undefined) {
      byBefore = new Map();
      this.#pairIndex.set(key, byBefore);
    }
    let slots = byBefore.get(before);
    if (slots === undefined) {
      slots = [undefined, undefined];
      byBefore.set(before, slots);
    }
    const p = slots[sameTrace];
    if (p !== undefined) p[3]++;
    else {
      const made: PairCount = [key, before, sameTrace, 1];
      slots[sameTrace] = made;
      this.#pairs.push(made);
    }
  }

  result(): Sequence {
    // The last TRACE_WINDOW records' ids: the records a later chunk's errors may follow.
    const traceLast: [number, string, number][] = [];
    if (this.#key !== undefined) {
      const seen = new Map<number, number>();
      for (let r = Math.max(0, this.#records - TRACE_WINDOW); r < this.#records; r++) {
        const slot = r & RING_MASK;
        const span = findId(this.#buf, this.#starts[slot]!, this.#ends[slot]!, this.#key, this.#span);
        if (span.start < 0) continue;
        const hash = idHash(this.#buf, span);
        const at = seen.get(hash);
        if (at !== undefined) traceLast[at] = [hash, this.#keys[slot]!, r];
        else {
          seen.set(hash, traceLast.length);
          traceLast.push([hash, this.#keys[slot]!, r]);
        }
      }
    }
    return { records: this.#records, pairs: this.#pairs, firstError: this.#firstError, openTraces: this.#openTraces, traceLast };
  }
}

/**
 * Groups by severity and template key. One map per severity, keyed by the template's
 * 53-bit hash, so a record that joins a known group allocates nothing for its template.
 * A new group's template text is made by reading its head again (new groups are rare
 * after the first lines; the line parser has moved on by the time a record ends).
 */
class GroupTable {
  readonly #entries: GroupEntry[] = [];
  /** Per severity, by key: the group and its tallies, found in one lookup. */
  readonly #bySeverity: Map<number, GroupEntry>[] = Array.from({ length: SEVERITY_COUNT }, () => new Map());
  readonly #again: LineParser;

  constructor(info: FormatInfo) {
    this.#again = new LineParser(info);
  }

  add(r: OpenRecord): GroupStat {
    const severity = r.finalSeverity();
    const map = this.#bySeverity[severity]!;
    const again = this.#again;
    // Under one head, a different root cause (a TypeError, an ECONNREFUSED) is a different event.
    const root = r.root;
    let key = root === undefined ? r.key : (r.key + this.#rootKey(root) * 7919) % KEY_MODULUS;
    // ...and so is the same root cause raised at another place in the program's own code
    // (a ZeroDivisionError in batch.py's compute_ratio is not a service's recurring one).
    const frame = r.ownFrame();
    if (frame !== undefined) key = (key + this.#rootKey(frame) * 104729) % KEY_MODULUS;
    // ...and a payload refused for other fields.
    for (const field of r.fields) key = (key * 31 + this.#rootKey(field)) % KEY_MODULUS;
    const found = map.get(key);
    const lastLine = r.firstLine + r.lines - 1;
    if (found !== undefined) {
      const group = found.group;
      group.records++;
      group.lines += r.lines;
      group.lastLine = lastLine;
      group.lastTime = r.time;
      tallyValues(found, r);
      return group;
    }
    const h = r.head;
    const prefix = latin1(h.buf, h.s, Math.min(h.e, h.s + PREFIX_BYTES));
    if (!(r.isHeader && again.header(h.buf, h.s, h.e, prefix))) again.plain(h.buf, h.s, h.e, prefix, r.opener);
    let template = again.scanner.text();
    if (root !== undefined) template += ` | ${this.#rootText(root)}`;
    if (r.fields.length > 0) template += ` | ${r.fields.map((f) => this.#rootText(f)).join(', ')}`;
    const shown = r.shownLines();
    const moreLines = r.lines - 1 - shown.length;
    // A JSON record's error as it was (`CardDeclined: ... acct_31`), which a long line cuts
    // away, and the root cause under it where the error's line does not name it (`err.cause`).
    if (again.jsonError !== '') {
      const cause = again.jsonCause();
      const causes = cause !== '' && cause !== again.jsonError ? [clip(`caused by: ${cause}`, MAX_CONTINUATION_CHARS)] : [];
      shown.unshift(clip(again.jsonError, MAX_CONTINUATION_CHARS), ...causes, ...ownFramesIn(again.jsonStack()).map((f) => clip(f, MAX_CONTINUATION_CHARS)));
    }
    const g: GroupStat = {
      key: `${severity}:${key}`,
      template,
      severity,
      records: 1,
      lines: r.lines,
      firstLine: r.firstLine,
      lastLine,
      firstTime: r.time,
      lastTime: r.time,
      example: textOf(h.buf, h.s, h.e, MAX_EXAMPLE_CHARS),
      exampleTemplateAt: r.templateAt < 0 ? -1 : textOf(h.buf, h.s, h.s + r.templateAt, MAX_EXAMPLE_CHARS).length,
      exampleMore: shown,
      exampleMoreLines: moreLines,
      ...(frame !== undefined ? { site: this.#rootText(frame) } : {}),
      ...(r.before !== undefined ? { printedBefore: textOf(r.before.buf, r.before.s, r.before.e, MAX_CONTINUATION_CHARS) } : {}),
    };
    const entry: GroupEntry = { group: g, tallies: [], placeholders: r.phCount };
    tallyValues(entry, r);
    this.#entries.push(entry);
    map.set(key, entry);
    return g;
  }

  /**
   * The groups the native pass made of this chunk's one-line records, joined with those
   * read here: a group of both has the records and values of both, and its first record's
   * head, time and placeholders from whichever came first.
   */
  merge(native: NativeChunk, buf: Buffer, keys: string[]): void {
    for (let n = 0; n < native.groups; n++) {
      const severity = groupSeverity(native, n);
      const key = groupKey(native, n);
      const map = this.#bySeverity[severity]!;
      const records = groupWord(native, n, GROUP.records);
      const firstLine = groupWord(native, n, GROUP.firstLine);
      const lastLine = groupWord(native, n, GROUP.lastLine);
      const timeAt = (field: number): string => epochToIso(latin1(buf, groupWord(native, n, field), groupWord(native, n, field + 1)));
      const values = nativeValues(native, n, buf);
      let entry = map.get(key);
      if (entry === undefined || firstLine < entry.group.firstLine) {
        const g = this.#nativeHead(native, n, buf, keys[n]!, severity, timeAt(GROUP.firstTimeStart));
        if (entry === undefined) {
          entry = { group: { ...g, records: 0, lines: 0, lastLine: 0 }, tallies: [], placeholders: 0 };
          this.#entries.push(entry);
          map.set(key, entry);
        } else {
          // The native record came first: what a group's first record gives it is that record's.
          const { records: r, lines, lastLine: l, lastTime } = entry.group;
          entry.group = { ...g, records: r, lines, lastLine: l, lastTime };
        }
        entry.placeholders = groupWord(native, n, GROUP.placeholders);
      }
      const group = entry.group;
      group.records += records;
      group.lines += records;
      if (lastLine > group.lastLine) {
        group.lastLine = lastLine;
        group.lastTime = timeAt(GROUP.lastTimeStart);
      }
      const tallies = entry.tallies;
      while (tallies.length < values.length) tallies.push(new ValueTally());
      for (let k = 0; k < values.length; k++) tallies[k]!.merge(values[k]!);
    }
  }

  /** A group as its first record, read natively, makes it (its counts filled in by merge). */
  #nativeHead(native: NativeChunk, n: number, buf: Buffer, key: string, severity: Severity, time: string): GroupStat {
    const s = groupWord(native, n, GROUP.start);
    const e = groupWord(native, n, GROUP.end);
    const again = this.#again;
    if (!again.header(buf, s, e, latin1(buf, s, Math.min(e, s + PREFIX_BYTES)))) throw new WispError('WISP_INTERNAL', `a header read natively at bytes ${s}-${e} was not read again`);
    return {
      key,
      template: again.scanner.text(),
      severity,
      records: 0,
      lines: 0,
      firstLine: groupWord(native, n, GROUP.firstLine),
      lastLine: groupWord(native, n, GROUP.firstLine),
      firstTime: time,
      lastTime: time,
      example: textOf(buf, s, e, MAX_EXAMPLE_CHARS),
      exampleTemplateAt: textOf(buf, s, s + groupWord(native, n, GROUP.message), MAX_EXAMPLE_CHARS).length,
      exampleMore: [],
      exampleMoreLines: 0,
    };
  }

  /** The groups in order of their first record, each with what its placeholders held. */
  finished(): GroupStat[] {
    const entries = [...this.#entries].sort((a, b) => a.group.firstLine - b.group.firstLine);
    return entries.map((entry) => {
      entry.group.values = entry.tallies.slice(0, entry.placeholders).map((t) => t.result());
      return entry.group;
    });
  }

  #rootKey(l: KeptLine): number {
    return this.#again.scanner.begin(l.buf).add(contentStart(l), l.e).key();
  }

  #rootText(l: KeptLine): string {
    return this.#again.scanner.begin(l.buf).add(contentStart(l), l.e).text();
  }
}

/**
 * A group being made: its stats, a tally per placeholder, and how many placeholders its
 * first record had (those are the group's; a record tallies as many as it has, so that
 * the first record's count holds wherever that record was read).
 */
interface GroupEntry {
  group: GroupStat;
  tallies: ValueTally[];
  placeholders: number;
}

function tallyValues(entry: GroupEntry, r: OpenRecord): void {
  const tallies = entry.tallies;
  const n = r.phCount;
  while (tallies.length < n) tallies.push(new ValueTally());
  for (let k = 0; k < n; k++) tallies[k]!.add(r.phBuf, r.ph[2 * k]!, r.ph[2 * k + 1]!, r.firstLine);
}

/** A native group's values, per placeholder (null: more than a tally keeps). */
function nativeValues(native: NativeChunk, n: number, buf: Buffer): (CountedValue[] | null)[] {
  const w = native.w;
  const at = groupWord(native, n, GROUP.talliesAt);
  return Array.from({ length: groupWord(native, n, GROUP.tallies) }, (_, k) => {
    const t = at + k * TALLY_WORDS;
    const count = w[t]!;
    if (count < 0) return null;
    return Array.from({ length: count }, (_, v) => {
      const x = t + 1 + 4 * v;
      return { bytes: Buffer.from(buf.subarray(w[x]!, w[x + 1]!)), count: w[x + 2]!, first: w[x + 3]! };
    });
  });
}

/**
 * The program's own frames in a stack held as text (a JSON record's `err.stack`, a
 * traceback in one field): the first one and its caller, or a Python traceback's last (innermost).
 */
function ownFramesIn(stack: string): string[] {
  let innermost: string | undefined;
  const own: string[] = [];
  for (const raw of stack.split('\n')) {
    const line = raw.trimEnd();
    const text = line.trimStart();
    const python = text.startsWith('File "');
    if (!(python || text.startsWith('at ')) || isRuntimeFrame(line)) continue;
    if (python) innermost = line;
    // The first and its caller, as a record's own stack shows them.
    else if (own.push(line) === 2) return own;
  }
  return innermost !== undefined ? [innermost] : own;
}

/** Keys are 53-bit: a combined key stays below 2^53. */
const KEY_MODULUS = 9007199254740881;

/** Where a compiler's label says what is wrong: past the gutter and the markers (`|  ----   ^^^^ expected ...`). */
function labelStart(l: KeptLine): number {
  let i = l.s;
  while (i < l.e && (l.buf[i] === 32 || l.buf[i] === 9 || l.buf[i] === 124 /* | */ || l.buf[i] === 45 /* - */ || l.buf[i] === 94 /* ^ */ || l.buf[i] === 126 /* ~ */)) i++;
  return i;
}

/** Where a line's text starts, past its indentation. */
function contentStart(l: KeptLine): number {
  let i = l.s;
  while (i < l.e && (l.buf[i] === 32 || l.buf[i] === 9)) i++;
  return i;
}

/**
 * Which lines start a record and which continue one.
 *
 * A line with the input's record header (a timestamp at its start, a log show row, a JSON
 * object) always starts a record. Where the writer stamps every record (log show, GitHub
 * Actions), a line without one continues the record before it. Elsewhere a line without a
 * header continues a record only when it looks like part of one, decided by its shape, the
 * line before it and the record it would join:
 *
 * - stack frames, chained causes (`Caused by:`), Python's chain markers, pytest's `E` lines;
 * - an exception's own line after frames, a source excerpt, or the error header that logged it;
 * - Go's `goroutine N [...]:` and frames, `[signal ...]`, Rust's `stack backtrace:` inside a trace;
 * - a line indented deeper than the record's first line, a line after one that announces
 *   more (`:`, `{`, `,` ...), a closing bracket.
 *
 * A line that opens a record of its own (`panic:`, `Traceback ...`, `thread 'x' panicked
 * at`, a test runner's failure marker, a line that begins with a level word) starts one,
 * with the severity it carries, and so does any other line: output a program wrote between
 * its log lines is records, not continuations.
 *
 * Every rule looks back at most to the record's first line, so records can be read in
 * chunks that start where a record must start (`isRecordStart`), each chunk alone.
 */
import { ANSI } from '../../core/text.js';
import type { FormatInfo } from '../model/format.js';
import { announces, checkerPrefixLength, indentOf, isDiffLine, isRuntimeFrame, reportsFailedStep, requiredFromHere, Shape, shapeOf, type LineShape } from './line-shape.js';
import { latin1 } from './latin1.js';
import { isLogShowFrame, LineParser, namePrefixLength, PREFIX_BYTES } from './line-parser.js';
import { fromLevelWord, fromWords, Severity } from '../model/severity.js';
import { redact } from '../../redact/index.js';
import { mayNeedRedaction } from '../../redact/screen.js';

export const LineClass = {
  /** Starts a record: its head is parsed (template, severity, time) in `parser`. */
  Start: 0,
  Continue: 1,
  /** Not a log line (log show's header and footer). */
  Skip: 2,
  /** A blank line with no record to belong to (the input's first lines). */
  Orphan: 3,
} as const;
export type LineClass = (typeof LineClass)[keyof typeof LineClass];

/** Leading blanks of a line's uncoloured prefix, as indentOf counts them; -1 when the line is blank. */
function indentOfText(prefix: string, lineBytes: number): number {
  let cols = 0;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    if (c === 32) cols++;
    else if (c === 9) cols += 8;
    else return cols;
  }
  return prefix.length >= lineBytes || prefix.length >= PREFIX_BYTES ? -1 : cols;
}

/** Shapes that continue a trace whatever their indentation. */
const ALWAYS_CONTINUES = Shape.Frame | Shape.Cause | Shape.Chain | Shape.PytestDetail | Shape.Excerpt;
/** Shapes whose class depends on the record they would join: never a place to cut. */
const DEPENDS_ON_RECORD = ALWAYS_CONTINUES | Shape.Traceback | Shape.Exception | Shape.TraceMark | Shape.Report | Shape.Closer;
/**
 * An exception's line as Python ends a traceback with it: a class name, dotted or followed by
 * a colon (`TimeLimitExceeded: 5`, `orders.models.Order.DoesNotExist`, `Boom: exploded`).
 * Read as one only at column 0 right under a traceback's frames. (Another thread's line
 * printed just there, `Status: 1 of 3 done`, reads as one too: a class of one word is
 * common, that interleaving rare.)
 */
const PYTHON_EXCEPTION = /^(?:(?:[A-Za-z_]\w*\.)+[A-Z]\w*(?::.*)?|[A-Z]\w*:(?: .*)?)$/;
/**
 * How many indented lines a Python exception's line may carry under it as its message's
 * own, where the traceback is the program's own (not under a log line's header, whose
 * next header ends it). Python prints nothing of a traceback after that line, but a
 * message may run long (pytest's assertion diff under `--tb=native -vv`: 70 lines).
 * Indented lines past these are the program's output, landed under a traceback flushed
 * before it (stderr unbuffered, stdout in blocks): records, not thousands of error lines.
 */
const MESSAGE_LINES = 100;
/**
 * How many non-blank lines a header whose message is not there (its writer put the message
 * on the lines below: Spring's failure analysis, `***` and `APPLICATION FAILED TO START`
 * then `Description:` and `Action:`) takes as its message, up to the next header. Only
 * plain lines: a line of any shape (a traceback, another program's `panic:`, a level word)
 * follows its own rules, as after any header (`logger.info("")` before an uncaught
 * traceback must not hide it). Bounded, so that a chunk's cut needs to look back this far
 * at most (record-chunks.ts, messageBelowLeft).
 */
export const MESSAGE_BELOW_LINES = 40;
/** How a line counts for a header's empty message (RecordReader.belowKindOf). */
export const BelowKind = { Line: 0, Header: 1, HeaderBelow: 2 } as const;
export type BelowKind = (typeof BelowKind)[keyof typeof BelowKind];
/**
 * An annotation that an exception's message carries at column 0 on a line of its own: a
 * label and a colon in brackets (SQLAlchemy's `[SQL: ...]`, `[parameters: ...]`), a line
 * in parentheses (its `(Background on this error at: ...)`), a label in capitals
 * (psycopg's `DETAIL:  Key (id)=(7) already exists.`, `HINT:`, `LINE 1:`).
 */
const MESSAGE_ANNOTATION = /^(?:\[[A-Za-z][\w ]{0,30}: |\(\w|[A-Z]{2,12}(?: \d+)?: )/;
/**
 * pydantic's ValidationError says how many errors its message lists (`2 validation errors
 * for Order`), then heads each with its field's path on a line of its own at column 0, the
 * error indented under it: `quantity`, then `  Input should be a valid integer ...`
 * (`customer.email`, `items.0.sku`, v1's `customer -> email`). Only that many paths are
 * read as the message's: a bare word after them (`ok`, `failed`) is a record.
 */
const FIELDS_ANNOUNCED = ' validation error';
const FIELDS_ANNOUNCED_BYTES = Buffer.from(FIELDS_ANNOUNCED);
const FIELDS_COUNT = /(?:^|[^\w.])(\d{1,4}) validation errors? for \S/;
/** A field's path is at most this long. */
const MAX_FIELD_PATH = 160;
/** Python's hooks name what they report on the line before its traceback: a thread, a finalizer, a process. */
const PYTHON_HOOK = /^(?:Exception in thread .{1,80}:|Exception ignored in: .*|Process [\w.-]{1,60}:)\s*$/;

/** How many fields' errors the line at bytes [s, e) announces (FIELDS_ANNOUNCED), or 0. */
function fieldsAnnounced(buf: Buffer, s: number, e: number): number {
  if (e - s < 24) return 0;
  const at = buf.subarray(s, e).indexOf(FIELDS_ANNOUNCED_BYTES);
  return at < 0 ? 0 : fieldsCount(buf.toString('latin1', s + Math.max(0, at - 8), Math.min(e, s + at + 48)));
}

function fieldsCount(text: string): number {
  const m = FIELDS_COUNT.exec(text);
  return m === null ? 0 : Number(m[1]);
}

/** Lines that say a record holds an exception of its own. */
const OWN_EXCEPTION = Shape.Traceback | Shape.Exception | Shape.Cause | Shape.Chain;

/**
 * One line as it is read: redacted first when it may hold a secret, so that nothing is
 * derived (template, example, cause lines) from a line that still holds one.
 */
export interface ReadLine {
  buf: Buffer;
  s: number;
  e: number;
}

export class RecordReader {
  readonly parser: LineParser;
  /** The current line, redacted where needed. */
  readonly line: ReadLine = { buf: Buffer.alloc(0), s: 0, e: 0 };
  /** The current line's shape (lines without a header only) and indentation. */
  readonly shape: LineShape = { shape: 0, severity: Severity.Info };
  indent = 0;
  /** Whether the current line carries the input's header. */
  isHeader = false;
  /** For a Start line without a header: the severity its form carries, if it opens a record. */
  opener: Severity | undefined;
  /** The current line is a diagnostic that continues GCC's `required from here` before it (requiredFromHere). */
  explainsContext = false;
  /** The current line goes on with the error its record's head logged, under the same header (continuesLoggedError). */
  saysMoreOfError = false;
  /** The current line is a field's path that a ValidationError's message lists (FIELDS_ANNOUNCED): part of its record's key. */
  isField = false;
  /**
   * The current line goes on with the message of the exception or the error logged before
   * it: an annotation at column 0, a field's path or the first line of its error (#classify).
   */
  continuesException = false;
  /** The current line is the level line under a header line (FormatInfo.levelOnNextLine): parsed, it gives the record its level and template. */
  isLevelLine = false;
  /**
   * Where the current line goes on with the line before by the prefix they share (`npm
   * error `, continuesPrefixed): how many of its bytes that prefix takes, the whole line
   * where it is the prefix alone; else 0. Its words are read past it.
   */
  prefixBytes = 0;
  readonly #info: FormatInfo;
  #prefix = '';
  /** The prefix past a memory checker's `==22307== ` or a compose service's `worker-1  | ` (its lines' shapes are read from there), and that prefix's length. */
  #body = '';
  #bodyAt = 0;
  /** The current line's prefix had terminal colours, taken out of it. */
  #coloured = false;
  // The previous non-blank line.
  #beforeIndent = -1;
  #beforeShape = 0;
  #beforeAnnounces = false;
  #beforeErrorHeader = false;
  /** ...and declared an error or worse in its level field (what logs an exception with its traceback). */
  #beforeLoggedError = false;
  /** The previous non-blank line's first bytes (latin1). */
  #beforeText = '';
  // The open record.
  #open = false;
  /** Lines indented deeper than this continue the record. */
  #threshold = 0;
  #trace = false;
  /** The open record is its header line alone so far. */
  #headerOnly = false;
  /** The open record's head's severity (a header's message on the next line keeps it: FormatInfo.messageOnNextLine). */
  #headerSeverity: Severity = Severity.Info;
  /** The open record's head, where it is a header line that declared an error or a warning ('' otherwise). */
  #errorHead = '';
  /** The open record is a trace that holds a diff (a line of one continued it): its next diff lines continue it too (isDiffLine). */
  #diff = false;
  /** The open record's head is a header line that declared a routine level (below a warning). */
  #routineHead = false;
  /** The open record holds an exception of its own: a traceback, an exception's line or a chained cause. */
  #ownException = false;
  /** The open record holds Python's `Traceback (most recent call last):`: its exception's line ends its frames (PYTHON_EXCEPTION). */
  #pythonTrace = false;
  /**
   * Lines the open record has read since its Python traceback's exception's line (-1: none
   * read yet, or a chained traceback began since): annotations of its message may follow
   * it (#classify), and a program's own traceback carries at most MESSAGE_LINES indented lines.
   */
  #sinceException = -1;
  /** The open record began with the input's header (a logged error): the next header ends it. */
  #headerHead = false;
  /** Lines the open record's header may still take as its message, its own being empty (MESSAGE_BELOW_LINES). */
  #belowLeft = 0;
  /** The current line is one of those (#classify: a plain line there goes on with the header). */
  #takesBelow = false;
  /** Fields' paths the open record's message has announced and not yet listed (FIELDS_ANNOUNCED). */
  #fieldsLeft = 0;
  /** The open record has listed one (its error is indented under it). */
  #fields = false;
  /** The current line is a field's path that went on with the record's message (isField); the previous non-blank line was one, or announced them. */
  #beforeField = false;
  #beforeAnnouncedFields = false;

  constructor(info: FormatInfo) {
    this.#info = info;
    this.parser = new LineParser(info);
  }

  /** Forgets what came before: the next line starts a record (a chunk's first line). */
  reset(): void {
    this.#open = false;
    this.#headerOnly = false;
    this.#diff = false;
    this.#errorHead = '';
    this.#routineHead = false;
    this.#ownException = false;
    this.#pythonTrace = false;
    this.#sinceException = -1;
    this.#headerHead = false;
    this.#belowLeft = 0;
    this.#fieldsLeft = 0;
    this.#fields = false;
    this.#beforeField = false;
    this.#beforeAnnouncedFields = false;
    this.#beforeIndent = -1;
    this.#beforeShape = 0;
    this.#beforeAnnounces = false;
    this.#beforeErrorHeader = false;
    this.#beforeLoggedError = false;
    this.#beforeText = '';
  }

  /**
   * Reads bytes [s, e) of buf (one line without its newline) and classifies it.
   * `mayHoldSecret`: the screen's verdict on the line, where the caller screened its lines
   * at once (screenLines); else it is screened here.
   */
  read(buf: Buffer, s: number, e: number, mayHoldSecret?: boolean): LineClass {
    this.#take(buf, s, e, mayHoldSecret);
    const line = this.line;
    const indent = this.#indent();
    if (indent < 0) {
      this.indent = -1;
      this.shape.shape = 0;
      return this.#open ? LineClass.Continue : LineClass.Orphan;
    }
    const prefix = this.#prefix;
    const info = this.#info;
    if ((info.format === 'logshow' || info.format === 'logshow-compact') && isLogShowFrame(prefix)) {
      this.#open = false;
      return LineClass.Skip;
    }
    this.opener = undefined;
    this.explainsContext = false;
    this.saysMoreOfError = false;
    this.continuesException = false;
    this.isField = false;
    this.isLevelLine = false;
    this.prefixBytes = 0;
    this.shape.shape = 0;
    this.isHeader = this.parser.header(line.buf, line.s, line.e, prefix);
    // Any line of the record may announce its fields: a header, an exception's line, the line under a header.
    const announced = indent === 0 ? this.#fieldsAnnounced() : 0;
    let cls: LineClass;
    if (this.isHeader) {
      this.indent = 0;
      // Any header ends what a header before it took as its message (belowKindOf says so).
      this.#belowLeft = this.#messageBelow() ? MESSAGE_BELOW_LINES : 0;
      this.saysMoreOfError = this.#open && this.#errorHead !== '' && !this.parser.declared && continuesLoggedError(this.#body, this.#errorHead);
      cls = this.saysMoreOfError ? LineClass.Continue : LineClass.Start;
    } else {
      this.indent = indent;
      let shape = shapeOf(this.#body, indent, this.shape).shape;
      // Python names an exception by its class, whatever the name ends with
      // (`billiard.exceptions.TimeLimitExceeded: ...`, `QuotaExceeded: ...`): the line at
      // column 0 that ends a traceback's frames is its exception's, the cause.
      if (shape === 0 && indent === 0 && this.#pythonTrace && this.#beforeIndent > 0 && PYTHON_EXCEPTION.test(this.#body)) {
        shape = Shape.Exception;
        this.shape.shape = shape;
        this.shape.severity = Severity.Error;
      }
      this.isLevelLine = this.#headerOnly && ((info.levelOnNextLine === true && indent === 0 && (shape & Shape.LevelWord) !== 0) || info.messageOnNextLine === true);
      if (this.isLevelLine) {
        // The header's record, its level and message on this line (or its message alone, the header's level kept).
        this.opener = info.messageOnNextLine === true ? this.#headerSeverity : this.shape.severity;
        this.parser.plain(line.buf, line.s, line.e, prefix, this.opener);
      }
      this.#takesBelow = this.#belowLeft > 0;
      if (this.#belowLeft > 0) this.#belowLeft--;
      const shared = this.#open && !this.isLevelLine && !info.strict ? sharedPrefixLength(this.#body, this.#beforeText) : 0;
      if (shared > 0) this.prefixBytes = this.#bodyAt + shared;
      cls = !this.#open ? LineClass.Start : this.isLevelLine || info.strict || shared > 0 ? LineClass.Continue : this.#classify(shape, indent, announced > 0);
      if (cls === LineClass.Start) {
        if (shape & (Shape.Opener | Shape.LevelWord | Shape.Traceback | Shape.Exception) || (shape === Shape.Diagnostic && this.shape.severity <= Severity.Warning)) this.opener = this.shape.severity;
        // A chained cause that starts a record (another thread's, see #classify) is the error it names.
        else if (shape & Shape.Cause) this.opener = Severity.Error;
        this.parser.plain(line.buf, line.s, line.e, prefix, this.opener);
      }
    }
    if (cls === LineClass.Start) {
      // A plain line that steps back out of an indented block (`4 !== 3` inside a test
      // runner's failure report) keeps the block's threshold: the lines indented as the
      // block's records were still start records. Such a line is no place to cut.
      const stepsOut = this.#open && !this.isHeader && this.opener === undefined && this.indent < this.#beforeIndent;
      // An exception group's traceback stands indented at its lines' `  |` bar: they are its.
      const groupTraceback = !this.isHeader && this.indent > 0 && (this.shape.shape & Shape.Traceback) !== 0;
      this.#threshold = stepsOut ? Math.max(this.indent, this.#threshold) : groupTraceback ? this.indent - 1 : this.indent;
      this.#open = true;
      this.#headerOnly = this.isHeader;
      this.#headerSeverity = this.parser.severity;
      this.#diff = false;
      this.#errorHead = this.isHeader && this.parser.declared && this.parser.severity <= Severity.Warning ? this.#body : '';
      this.#routineHead = this.isHeader && this.parser.declared && this.parser.severity > Severity.Warning;
      this.#ownException = (this.shape.shape & OWN_EXCEPTION) !== 0;
      this.#pythonTrace = (this.shape.shape & Shape.Traceback) !== 0;
      this.#sinceException = -1;
      this.#headerHead = this.isHeader;
      if (!this.isHeader) this.#belowLeft = 0;
      this.#fieldsLeft = 0;
      this.#fields = false;
      this.#trace = !this.isHeader && ((this.shape.shape & (Shape.Traceback | Shape.Exception)) !== 0 || this.opener === Severity.Critical);
    } else {
      this.#headerOnly = false;
      if (this.shape.shape & (Shape.Frame | Shape.Cause | Shape.Exception)) this.#trace = true;
      if (this.shape.shape & OWN_EXCEPTION) this.#ownException = true;
      if (this.shape.shape & Shape.Traceback) this.#pythonTrace = true;
      if (this.shape.shape & (Shape.Traceback | Shape.Chain)) this.#sinceException = -1;
      else if (this.#pythonTrace && this.indent === 0 && this.shape.shape & Shape.Exception) this.#sinceException = 0;
      else if (this.#sinceException >= 0) this.#sinceException++;
      // Only under an exception or a trace: a log whose lines begin `- ` (BGL's alert flag) holds no diff.
      if (this.#trace && this.indent === 0 && isDiffLine(this.#body)) this.#diff = true;
    }
    this.#beforeIndent = this.indent;
    this.#beforeShape = this.shape.shape;
    this.#beforeAnnounces = announces(line.buf, line.s, line.e);
    this.#beforeErrorHeader = (this.isHeader || this.isLevelLine) && this.parser.severity <= Severity.Warning;
    this.#beforeLoggedError = this.#beforeErrorHeader && this.parser.declared && this.parser.severity <= Severity.Error;
    this.#beforeText = this.#body;
    this.#beforeField = this.isField;
    if (announced > 0) this.#fieldsLeft = announced;
    this.#beforeAnnouncedFields = announced > 0;
    return cls;
  }

  /**
   * Whether the line at bytes [s, e) must start a record, whatever record came before it:
   * a place where the input can be cut into chunks read apart. `before` is the previous
   * non-blank line, if any (its end decides whether it announces more); `belowLeft`, how
   * many lines a header's empty message may still take there (record-chunks.ts), asked
   * only of a plain line that would start one.
   */
  isRecordStart(buf: Buffer, s: number, e: number, before: ReadLine | undefined, belowLeft?: () => number): boolean {
    this.#startStands = false;
    const starts = this.#startsRecord(buf, s, e, before);
    // Asked last, and only where it matters: it reads the lines before this one.
    return starts && (this.#startStands || belowLeft === undefined || belowLeft() === 0);
  }

  /** The line isRecordStart took for a start is a header or has a shape: it starts one within a header's message below too. */
  #startStands = false;

  #startsRecord(buf: Buffer, s: number, e: number, before: ReadLine | undefined): boolean {
    let beforeAnnounces = false;
    let beforeIndent = 0;
    let beforeText = '';
    if (before !== undefined) {
      this.#take(before.buf, before.s, before.e);
      beforeAnnounces = announces(this.line.buf, this.line.s, this.line.e);
      beforeIndent = this.#indent();
      beforeText = this.#body;
    }
    this.#take(buf, s, e);
    const line = this.line;
    const indent = this.#indent();
    if (indent < 0) return false;
    // A line under the same header as the one before, labelled where the level was, may say more of an error logged there.
    if (this.parser.header(line.buf, line.s, line.e, this.#prefix)) {
      this.#startStands = true;
      return this.parser.declared || labelAt(this.#body, beforeText, sharedHeaderLength(this.#body, beforeText)) === undefined;
    }
    if (this.#info.strict || continuesPrefixed(this.#body, beforeText)) return false;
    // A report that the step before it failed is read with the line before it (reportsFailedStep),
    // and a diff line may continue a diff before it (isDiffLine).
    if (reportsFailedStep(this.#body) || (indent === 0 && isDiffLine(this.#body))) return false;
    const shape = shapeOf(this.#body, indent, this.shape).shape;
    if (shape & DEPENDS_ON_RECORD || followsRequiredFromHere(shape, beforeText)) return false;
    // Within what a header with an empty message takes as its message, only a plain line goes on with it (#classify).
    this.#startStands = shape !== 0;
    // A level line goes with the header line before it (FormatInfo.levelOnNextLine).
    if (shape & (Shape.Opener | Shape.LevelWord)) return indent === 0 && !(this.#info.levelOnNextLine && shape & Shape.LevelWord);
    const plainStart = indent === 0 && !beforeAnnounces && beforeIndent <= 0;
    if (!plainStart || this.#info.strict) return plainStart;
    const annotation = MESSAGE_ANNOTATION.test(this.#body);
    if (before === undefined) return !annotation;
    // A line that announces a ValidationError's fields may go on with the header before it (#classify).
    if (this.#fieldsAnnounced() > 0) return false;
    // A ValidationError's first field's path goes on with the line that announced it (#classify).
    // From here the reader holds `before`, not this line.
    if (this.#takenAnnouncesFields(before)) return false;
    if (!annotation) return true;
    // An annotation may go on with a Python exception's message however many lines back
    // its line was (#classify): it surely starts a record only right after a header that
    // declares its level, which started one that holds no exception.
    if (!this.#info.timestamped) return false;
    return this.parser.header(this.line.buf, this.line.s, this.line.e, this.#prefix) && this.parser.declared;
  }

  /** The header just parsed leaves its message to the lines below (MESSAGE_BELOW_LINES). */
  #messageBelow(): boolean {
    return this.parser.messageBelow && !this.#info.levelOnNextLine && !this.#info.messageOnNextLine;
  }

  /**
   * How one line that is not blank (isBlankLine), bytes [s, e) of buf, counts for a header's
   * empty message as read() counts it (MESSAGE_BELOW_LINES): as one of the lines it may
   * take, or as a header, which ends it and may leave its own message below.
   */
  belowKindOf(buf: Buffer, s: number, e: number): BelowKind {
    this.#take(buf, s, e);
    if (!this.parser.header(this.line.buf, this.line.s, this.line.e, this.#prefix)) return BelowKind.Line;
    return this.#messageBelow() ? BelowKind.HeaderBelow : BelowKind.Header;
  }

  /** Whether the line at bytes [s, e) of buf is blank as read() reads it (colour codes alone are, and a checker's or a service's prefix alone). */
  isBlankLine(buf: Buffer, s: number, e: number): boolean {
    this.#take(buf, s, e);
    return this.#indent() < 0;
  }

  /** A line's text as it is read (redacted where needed), without terminal colours kept out. */
  textOf(buf: Buffer, s: number, e: number): string {
    this.#take(buf, s, e);
    return this.line.buf.toString('utf8', this.line.s, this.line.e);
  }

  /**
   * Whether the current line, a record's head without the input's header, reports that a
   * step failed (reportsFailedStep): the line before it is then the step's last word.
   */
  reportsFailedStep(): boolean {
    return !this.isHeader && reportsFailedStep(this.#body);
  }

  /**
   * The current line's first PREFIX_BYTES as its words are read: without terminal colours
   * where it had them (eslint's `\x1b[31merror\x1b[39m`), else undefined (read its bytes).
   */
  uncolouredText(): string | undefined {
    return this.#coloured ? this.#prefix : undefined;
  }

  /** A frame of the program's own code (not its language runtime's or a package's). */
  isOwnFrame(): boolean {
    return !isRuntimeFrame(this.#body);
  }

  /** `announcing`: the line announces a ValidationError's fields (FIELDS_ANNOUNCED). */
  #classify(shape: number, indent: number, announcing: boolean): LineClass {
    // A chained cause in a routine record that holds no exception of its own is another
    // thread's: every runtime prints an exception's own line before its frames and causes.
    // Where a program's streams are interleaved (stdout and stderr into one file), an
    // uncaught exception's frames and `Caused by:` lines land under the lines printed before
    // them; the cause starts a record of its own, the error it names.
    if (shape & Shape.Cause && this.#routineHead && !this.#ownException) return LineClass.Start;
    if (shape & ALWAYS_CONTINUES) return LineClass.Continue;
    if (followsRequiredFromHere(shape, this.#beforeText)) {
      this.explainsContext = true;
      return LineClass.Continue;
    }
    // A traceback goes with the error line that logged it (Python's logger.exception); after a
    // warning it is the program's own end (an uncaught exception), a record of its own. One
    // quoted in an exception's message (`multiprocessing.pool.RemoteTraceback: ` then `"""`)
    // is that exception's.
    const quoted = (this.#beforeShape & Shape.Closer) !== 0 && this.#ownException;
    // So does the line a Python hook prints before it (`Exception in thread poller:`, `Process indexer-3:`).
    if (shape & Shape.Traceback) return this.#beforeShape & Shape.Chain || this.#beforeLoggedError || quoted || PYTHON_HOOK.test(this.#beforeText) ? LineClass.Continue : LineClass.Start;
    if (shape & Shape.Exception) {
      const afterTrace = this.#beforeIndent > 0 || (this.#beforeShape & (ALWAYS_CONTINUES | Shape.TraceMark)) !== 0;
      // Where threads share a stream, a trace printed in pieces ends under another thread's
      // routine line (Python's `Exception in thread`: its frames, then `KeyError: ...`, among
      // INFO lines). A routine record that holds no exception of its own did not log it: the
      // exception that ends the trace in it is the error it is, a record of its own.
      if (afterTrace && this.#trace && this.#routineHead && !this.#ownException) return LineClass.Start;
      // A remote traceback quoted in another (a pool inside a pool's worker) begins with its own exception's line.
      return afterTrace || this.#beforeErrorHeader || this.#beforeAnnounces || quoted ? LineClass.Continue : LineClass.Start;
    }
    if (shape & (Shape.TraceMark | Shape.Report) && this.#trace) return LineClass.Continue;
    // PHP's `Stack trace:` right under the error line that logged it (`PHP Fatal error:  Uncaught ...`).
    if (shape & Shape.TraceMark && this.#beforeErrorHeader) return LineClass.Continue;
    if (this.#diff && indent === 0 && isDiffLine(this.#body)) return LineClass.Continue;
    // An opener starts a record even when indented (test runners indent theirs), but not
    // inside a trace it is indented under (Go's `\tpanic: ...` under `panic: ... [recovered]`).
    if (shape & Shape.Opener) return this.#trace && indent > this.#threshold ? LineClass.Continue : LineClass.Start;
    if (shape & Shape.LevelWord) return indent > this.#threshold ? LineClass.Continue : LineClass.Start;
    if (indent > this.#threshold) {
      // The error under a field's path (pydantic's `  Input should be a valid integer`) is shown with it.
      if (this.#beforeField) this.continuesException = true;
      return !this.#headerHead && this.#sinceException >= MESSAGE_LINES ? LineClass.Start : LineClass.Continue;
    }
    // A ValidationError's fields' paths (FIELDS_ANNOUNCED), as many as its message announced:
    // the first right after that line, each next one after the error indented under the one
    // before. Elsewhere a bare word is a record (trials of real programs found causes hidden
    // when a status word or a listing could continue a warning).
    const fieldNext = this.#beforeAnnouncedFields || (this.#fields && this.#beforeIndent > 0);
    if (indent === 0 && shape === 0 && this.#fieldsLeft > 0 && fieldNext && this.line.e - this.line.s <= MAX_FIELD_PATH) {
      this.#fieldsLeft--;
      this.#fields = true;
      this.isField = true;
      this.continuesException = true;
      return LineClass.Continue;
    }
    if (this.#beforeAnnounces || shape & Shape.Closer) return LineClass.Continue;
    // A ValidationError logged with its message on the next line (`log.error("rejected %s\n%s", src, e)`).
    if (announcing && this.#headerOnly && indent === 0) return LineClass.Continue;
    // Python prints an exception's message whole after its class, lines at column 0 too:
    // the annotations right after its line are its message (MESSAGE_ANNOTATION), logged or
    // uncaught. Any other plain line there may as well be the program's print() output,
    // another thread's or a library's line, a supervisor's: a record (a trial on 27 real
    // programs found causes hidden when every line up to the next header was taken).
    if (this.#sinceException >= 0 && MESSAGE_ANNOTATION.test(this.#body)) {
      this.continuesException = true;
      return LineClass.Continue;
    }
    // A plain line under a header whose message is not there is that message (MESSAGE_BELOW_LINES);
    // a line of any shape (a traceback, an opener, a level word) follows the rules above.
    // Unless its words say worse than the header's level (`could not connect` under an empty INFO line).
    if (shape === 0 && this.#takesBelow && fromWords(this.#body) >= this.#headerSeverity) return LineClass.Continue;
    return LineClass.Start;
  }

  /** Whether `before` announces fields, read as read() reads it. */
  #takenAnnouncesFields(before: ReadLine): boolean {
    this.#take(before.buf, before.s, before.e);
    return this.#fieldsAnnounced() > 0;
  }

  /** How many fields' errors the current line announces: its prefix is read first, its bytes only where it is longer. */
  #fieldsAnnounced(): number {
    if (this.#body.includes(FIELDS_ANNOUNCED)) return fieldsCount(this.#body);
    const line = this.line;
    return line.e - line.s > PREFIX_BYTES ? fieldsAnnounced(line.buf, line.s, line.e) : 0;
  }

  /** The current line's indentation as shapes read it (past a checker's prefix, colours out); -1 when it is blank. */
  #indent(): number {
    const line = this.line;
    if (!this.#coloured && this.#bodyAt === 0) return indentOf(line.buf, line.s, line.e);
    // A coloured line no longer than PREFIX_BYTES is whole in its uncoloured prefix: colour
    // codes alone (eslint's `\x1b[0m\x1b[0m` between its files) make a blank line.
    const whole = this.#coloured && line.e - line.s <= PREFIX_BYTES;
    return indentOfText(this.#body, whole ? this.#body.length : line.e - line.s - this.#bodyAt);
  }

  /** The line as it is read: redacted where the screen says it may hold a secret. */
  #take(buf: Buffer, s: number, e: number, mayHoldSecret = mayNeedRedaction(buf, s, e)): void {
    const line = this.line;
    this.#coloured = false;
    if (mayHoldSecret) {
      const text = buf.toString('utf8', s, e);
      const clean = buf[s] === 123 /* { */ ? redactJsonLine(text) : redact(text);
      if (clean !== text) {
        const bytes = Buffer.from(clean, 'utf8');
        line.buf = bytes;
        line.s = 0;
        line.e = bytes.length;
        this.#setPrefix(this.#uncoloured(latin1(bytes, 0, Math.min(bytes.length, PREFIX_BYTES))));
        return;
      }
    }
    line.buf = buf;
    line.s = s;
    line.e = e;
    this.#setPrefix(this.#uncoloured(latin1(buf, s, Math.min(e, s + PREFIX_BYTES))));
  }

  #setPrefix(prefix: string): void {
    this.#prefix = prefix;
    this.#bodyAt = checkerPrefixLength(prefix) || (this.#info.namePrefix ? namePrefixLength(prefix) : 0);
    this.#body = this.#bodyAt === 0 ? prefix : prefix.slice(this.#bodyAt);
  }

  /** Shapes are read without terminal colours (vitest and others colour even when piped). */
  #uncoloured(prefix: string): string {
    if (!prefix.includes('\x1b') && !prefix.includes('^[[')) return prefix;
    this.#coloured = true;
    return prefix.replace(ANSI, '');
  }
}

/**
 * How much of two header lines' start they share, up to a blank: the time and the fields
 * before the message (`2026-12-03 14:22:19.196 UTC [11525] app@shop `).
 */
function sharedHeaderLength(line: string, other: string): number {
  const n = Math.min(line.length, other.length);
  let k = 0;
  while (k < n && line.charCodeAt(k) === other.charCodeAt(k)) k++;
  while (k > 0 && line.charCodeAt(k - 1) !== 32) k--;
  return k;
}

/** A label at `at` in both lines (`DETAIL:` and `ERROR:`: capitals and a colon): the other line's, or undefined. */
function labelAt(line: string, other: string, at: number): string | undefined {
  if (at < 10) return undefined;
  const own = LABEL.exec(line.slice(at, at + 24));
  const theirs = LABEL.exec(other.slice(at, at + 24));
  return own !== null && theirs !== null ? theirs[1] : undefined;
}
// native/src/log_chunk.c's may_have_label looks for this form, after a blank, to know where a line may say more of an error.
const LABEL = /^([A-Z]{2,20}):\s/;

/**
 * A header line that goes on with the error logged just before it: the same time and
 * fields as the record's head, and a label of its own where the head had its level
 * (PostgreSQL's `DETAIL:`, `HINT:`, `STATEMENT:` after `ERROR:`). The line declares no
 * level itself; the head's label is a level word.
 */
function continuesLoggedError(line: string, head: string): boolean {
  const level = labelAt(line, head, sharedHeaderLength(line, head));
  return level !== undefined && fromLevelWord(level) !== undefined;
}

/** A diagnostic right after GCC's `required from here` (the line before, `before`): it belongs with that line. */
function followsRequiredFromHere(shape: number, before: string): boolean {
  return (shape & (Shape.Diagnostic | Shape.LevelWord)) !== 0 && requiredFromHere(before.trimEnd());
}

/**
 * A line of a message its writer prefixes line by line with its name and an error level
 * (`npm error Missing: ...` after `npm error code EUSAGE`), or the bare prefix that is such
 * a message's blank line. Only errors: a program prints one error message as it ends, but
 * many warnings, each of its own.
 */
function continuesPrefixed(line: string, before: string): boolean {
  return sharedPrefixLength(line, before) > 0;
}

/**
 * How much of `line` is a prefix it shares with the line before, where that makes it go on
 * with it: the whole line where it is that prefix alone (isBarePrefixOf), else an error's
 * prefix and the blank after it (`npm error `, sharesErrorPrefix); 0 where neither.
 */
function sharedPrefixLength(line: string, before: string): number {
  if (isBarePrefixOf(line, before)) return line.length;
  return sharesErrorPrefix(line, before);
}

const ERROR_PREFIX = /^[\w.@/-]{1,24} (?:error|ERROR|ERR!|fatal|FATAL)(?=[ \t]|$)/;

/** The length of the error's prefix `line` shares with `before`, the blank after it included; 0 where it shares none. */
function sharesErrorPrefix(line: string, before: string): number {
  const m = ERROR_PREFIX.exec(line.trimEnd());
  if (m === null) return 0;
  const prefix = m[0];
  const next = before.charCodeAt(prefix.length);
  if (!before.startsWith(prefix) || !(before.length === prefix.length || next === 32 || next === 9 || next === 13)) return 0;
  return Math.min(line.length, prefix.length + 1);
}

/**
 * A line that is only the first word or two of the line before it (`npm error` after
 * `npm error code EUSAGE`): the blank line of a message its writer prefixes line by line.
 */
function isBarePrefixOf(line: string, before: string): boolean {
  const text = line.trimEnd();
  if (text.length === 0 || text.length > 24 || before.length <= text.length) return false;
  return before.startsWith(text) && (before.charCodeAt(text.length) === 32 || before.charCodeAt(text.length) === 9);
}

/**
 * A JSON log line, redacted as text and then string by string once decoded: a secret
 * quoted inside a JSON string (`"value=\\"x\\""`) shows its shape only unescaped. The line
 * comes back compact where a decoded string changed.
 */
const MAX_JSON_DEPTH = 32;

function redactJsonLine(text: string): string {
  const redacted = redact(text);
  let value: unknown;
  try {
    value = JSON.parse(redacted);
  } catch {
    return redacted;
  }
  let changed = false;
  // Nesting past MAX_JSON_DEPTH is left as the text redaction left it: no recursion on input size.
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const r = redact(v);
      if (r !== v) changed = true;
      return r;
    }
    if (depth >= MAX_JSON_DEPTH) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
    return v;
  };
  const clean = walk(value, 0);
  return changed ? JSON.stringify(clean) : redacted;
}

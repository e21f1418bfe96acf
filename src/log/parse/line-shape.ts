/**
 * What a line without a record header looks like: a stack frame, a chained cause, an
 * exception's own line, a test runner's failure marker, a line that opens a record of its
 * own. Records are decided from these shapes and from the line before (see records.ts),
 * never from one list of words: a line's shape, what it follows and the record it is in.
 *
 * Shapes are read from a line's first bytes (the latin1 prefix the parser already holds),
 * only for lines that carry no header, so a log of timestamped lines pays nothing here.
 */
import { fromWords, Severity } from '../model/severity.js';
import { latin1 } from './latin1.js';

export const Shape = {
  /** `\tat com.x.Y(Y.java:1)`, `    at f (file.js:1:2)`, `  File "x.py", line 3, in f`, Go's `\t/src/x.go:12 +0x1d`, Rust's `   3: crate::f`, PHP's `#0 /app/x.php(6): f()`, Ruby's `\tfrom x.rb:8:in 'f'`, Erlang's `  in function  m:f/3 (m.erl, line 7)`. */
  Frame: 1 << 0,
  /** `Caused by: ...`, `Suppressed: ...`, PHP's `Next RuntimeException: ...`: a chained cause. */
  Cause: 1 << 1,
  /** Python's "During handling of the above exception ..." and "The above exception was the direct cause ...". */
  Chain: 1 << 2,
  /** `Traceback (most recent call last):`. */
  Traceback: 1 << 3,
  /** An exception's own line: `java.lang.IllegalStateException: boom`, `KeyError: 'x'`, `TypeError: ...`. */
  Exception: 1 << 4,
  /** Parts of a trace that stand at column 0: `goroutine 1 [running]:`, `[signal SIGSEGV ...]`, `stack backtrace:`, PHP's `Stack trace:`, node's `----- Native stack trace -----`, Go's `main.f(...)`. */
  TraceMark: 1 << 5,
  /** `}`, `]`, `)`, `});`: the end of a multi-line value; or `"""` alone, which bounds a traceback quoted in an exception's message. */
  Closer: 1 << 6,
  /** Opens a record of its own whatever came before (see OPENERS). */
  Opener: 1 << 7,
  /** pytest's `E   ...` lines and `>   ...` source marker. */
  PytestDetail: 1 << 8,
  /** Begins with a level word (`ERROR:`, `[warn]`, `Info `): opens a record unless indented under one (a YAML `error:` key). */
  LevelWord: 1 << 10,
  /** A diagnostic, `path/file.ext:12: message` or `file.ext:12:5: message` (compilers, linters, go test). */
  Diagnostic: 1 << 9,
  /** A compiler's source excerpt under its message: rustc's `14 | fn f() {`, `   |     ^^^ expected`. */
  Excerpt: 1 << 11,
  /** An excerpt's label under the code it marks, `   |     ^^^^ expected u64, found f64` (or without the gutter, `^---^ SC2115 (warning): ...`): what is wrong, in words. */
  ExcerptLabel: 1 << 12,
  /**
   * A frame of native code, by its address: a sanitizer's or gdb's `#1 0x55d1 in f x.c:4`,
   * valgrind's `at 0x1091C2: f (x.c:10)`. Also a Frame. A record that carries such frames
   * and declares no level reports a memory error or a crash.
   */
  NativeFrame: 1 << 13,
  /**
   * A line of a sanitizer's report at column 0, inside its record: `WRITE of size 41 at ...`,
   * `freed by thread T0 here:`, `SUMMARY: AddressSanitizer: ...`, `Shadow bytes around ...`.
   */
  Report: 1 << 14,
  /** Of those, the lines that say what went wrong: the access, where the memory was freed, the summary. */
  ReportCause: 1 << 15,
} as const;

/** A continuation line whose shape says it carries the cause: shown with the record's head. */
export const CAUSE_SHAPES = Shape.Exception | Shape.Cause | Shape.PytestDetail;

const FRAME = /^(?:\s+at |\tat |\s+File "|\s+\d+: |\t\/|\t[A-Za-z]:\\|\s+\.{3} \d+ (?:more|common frames omitted)|#\d+ (?:[^\s(]+\(\d+\): |\{main\}\s*$|\[internal function\]: )|\s+from \S+:\d+:in |\s+in (?:function|call from) +[\w@]+:[\w@']+\/\d+)/;
// node's native stack numbers its frames right-aligned: from the tenth on they stand at column 0 (`10: 0x18c05fb  [node]`).
const NATIVE_FRAME = /^(?:\s*#\d+ +(?:0x[0-9a-fA-F]+ in |[\w:.<>~]+ \S+:\d+)|\s+(?:at|by) 0x[0-9A-Fa-f]+: |\s+\/[^\s:]+\.go:\d+ \+0x[0-9a-f]+$|\s*\d+: 0x[0-9a-f]+ )/;
const REPORT = /^(?:(?:Address )?0x[0-9a-f]+ is located |(?:previously )?allocated by thread \S+ here:|Thread T\d+ created by |Goroutine \d+ \(\w+\) created at:|Shadow byte|=>0x[0-9a-f]+:)/;
/**
 * Report lines that say what went wrong, at any indentation: an access (ASan's `WRITE of
 * size 41 at`, TSan's `Previous write of size 8 at 0x.. by thread T1:`, Go's race detector's
 * `Read at 0x.. by goroutine 8:`), where the memory was freed, the summary, valgrind's
 * `Address 0x.. is 0 bytes after a block of size 32 alloc'd` (where the access fell).
 */
const REPORT_CAUSE = /^\s*(?:(?:READ|WRITE) of size \d+ at |(?:Previous )?(?:[Rr]ead|[Ww]rite)(?: of size \d+)? at 0x[0-9a-f]+ by |freed by thread \S+ here:|Address 0x[0-9a-fA-F]+ is (?:\d+ bytes (?:after|before|inside) a block of size \d+ (?:alloc'd|free'd)|not stack'd, malloc'd or (?:\(recently\) )?free'd|on thread \d+'s stack)|Location is (?:global|heap block|stack of) |SUMMARY: \w+Sanitizer: |\[\d+, \d+\) '[^']*' .*<== Memory access)/;
/**
 * The prefix a memory checker writes before each of its lines: valgrind's `==22307== `
 * (`--22307-- ` for its own notes), a sanitizer's `==22321==`.
 */
const CHECKER_PREFIX = /^(==|--)\d+\1 ?/;

/** How many of the line's first characters are a memory checker's prefix (0: none). */
export function checkerPrefixLength(text: string): number {
  const c = text.charCodeAt(0);
  if (c !== 61 /* = */ && c !== 45 /* - */) return 0;
  return CHECKER_PREFIX.exec(text)?.[0].length ?? 0;
}
// anyhow prints its chain under a bare `Caused by:`, each cause indented and numbered (`    0: bind ...`).
const CAUSE = /^\s*(?:Caused by:(?: |\s*$)|Suppressed: |Next (?=[\w\\]*(?:Exception|Error)\b))/;
const CHAIN = /^(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)/;
const TRACEBACK = /^Traceback \(most recent call last\):/;
/** Python 3.11's `  + Exception Group Traceback (most recent call last):`, indented two under its `  |` lines' bar. */
const GROUP_TRACEBACK = /^ {2}\+ Exception Group Traceback \(most recent call last\):/;
/**
 * `pkg.Class$Inner: msg`, `KeyError: 'x'`, `AssertionError [ERR_ASSERTION]: ...`, `StopIteration`.
 * The last name part ends in one of the words that name an exception in the languages
 * that print these lines (Java, Kotlin, Python, JavaScript, C#), or in `Traceback` after a
 * name (the worker's traceback Python's multiprocessing and concurrent.futures re-raise:
 * `multiprocessing.pool.RemoteTraceback:`). A JVM prints its throwables so whatever they
 * are called (`com.shop.db.Pool$Exhausted: ...`, JVM_THROWABLE): such a line is one too,
 * but its name says nothing of trouble, so a record it opens has its words' level (a
 * program may print `com.shop.Boot: started` so), and under an error's line it is that error's.
 */
const EXCEPTION = /^(?:[A-Za-z_$][\w$]*\.){0,12}(?:(?:[A-Z][\w$]*?)?(?:Exception|Error|Throwable|Failure|Fault|Exit|Interrupt|Iteration)|_?[A-Z][\w$]*Traceback)(?:$|:| \[|\s*\()/;
/** Any class in a package two deep or more, then its message: a throwable's line whatever its name (see EXCEPTION). */
const JVM_THROWABLE = /^(?:[a-z_]\w*\.){2,12}[A-Z][\w$]*: /;
/** Ruby's exception line, the place first: `exporter.rb:9:in 'fetch': key not found: "CHF" (KeyError)`. */
const RUBY_EXCEPTION = /^\S+:\d+:in [`'][^']*': .* \((?:[A-Z]\w*(?:::)?)+\)\s*$/;
/** A Go function's frame line, `main.(*Cache).Record()`, `net/http.(*conn).serve(0xc0001)`: its file's line follows it. */
const GO_FUNCTION = String.raw`(?:[\w.\-/]+\/)?[\w\-]+\.(?:\(\*?[\w\-]+\)\.)?[\w\-.]+\(.*\)$`;
const TRACE_MARK = new RegExp(String.raw`^(?:goroutine \d+ \[[^\]]*\]:|\[signal |stack backtrace:|Stack trace:\s*$|-{3,} Native stack trace -{3,}$|Emitted 'error' event (?:on .+ )?at:$|created by |panic\(|${GO_FUNCTION})`);
const INDENTED_GO_FUNCTION = new RegExp(String.raw`^\s+${GO_FUNCTION}`);

/** An indented Go function's line, as the race detector prints its stacks (at column 0 it is a TraceMark). */
export const isIndentedGoFunction = (text: string): boolean => INDENTED_GO_FUNCTION.test(text);
/** A closing bracket, or a triple quote alone: the bounds of a remote traceback in an exception's message (Python's RemoteTraceback). */
const CLOSER = /^(?:[}\])]+[;,)]*|"""|''')\s*$/;
const PYTEST_DETAIL = /^[E>] {3,}/;
const DIAGNOSTIC = /^[\w./\\-]+\.[A-Za-z]\w{0,5}:\d+(?::\d+)?: \S/;
const COMPILER_POSITION = /^[\w./\\-]+\.[A-Za-z]\w{0,5}:\d+:\d+: \S/;
/** A source excerpt's line: rustc's and others' gutter (`4  |     let x`), TeX's line number before the line it stopped in (`l.111 Latency is \\latencytable`). */
const EXCERPT = /^ *(?:\d+ +)?\|(?: |$)|^l\.\d+ /;
const EXCERPT_LABEL = /^ *\| *[\s|-]*[\^~]+[\s^~-]* [^\s^~|-]/;
/** A label under the code it marks without a gutter: shellcheck's `^-----^ SC2115 (warning): ...`. */
const CARET_LABEL = /^\s*\^[-~^]*\s+[^\s^~|-]/;

/** Lines are read as latin1 (a char a byte): a UTF-8 symbol is matched by its bytes. */
function utf8(alternatives: string): string {
  return alternatives
    .split('|')
    .map((a) => Buffer.from(a, 'utf8').toString('latin1'))
    .join('|');
}

/** A level word after a program's or a file position's name (`gcc: error: `, `x.c:3:5: note: `, `cc1[42]: warning[W1]: `). */
function afterName(levels: string): RegExp {
  return new RegExp(`^[\\w.+/\\-]+(?::\\d+){0,2}(?:\\[\\d+\\])?: (?:${levels})(?:\\[[\\w-]+\\])?: `);
}

/** A file position, then a message code of these forms (`src/x.py:11:23: E1120: `). */
function linterCode(codes: string): RegExp {
  return new RegExp(`^[\\w./\\\\-]+\\.[A-Za-z]\\w{0,5}:\\d+(?::\\d+)?: (?:${codes})\\b:? `);
}

/**
 * A program's complaint that names where it went wrong but no level word, as shells, stream
 * editors, compressors and linkers print to stderr: `run.sh: line 12: cfg: command not
 * found`, dash's `/bin/sh: 1: cfg: not found`, `prog: file x.awk line 3: ...`, `sed:
 * x.sed:2: unknown command`, `gzip: /srv/a.csv: not in gzip format`,
 * `main.c:(.text+0x1e): undefined reference to ...`. Programs are named in lower case, by
 * a path or not (`/usr/bin/ld: /tmp/cc1.o: in function ...`); a capitalised label is prose
 * (`Reading: /etc/x: done`). A program's own debug trace (`debug1: /etc/ssh/ssh_config
 * line 19: ...`) is not one.
 */
// native/src/log_chunk.c's may_be_located relies on every form beginning with a run of
// [\w./+-] and a colon right after it: a form that does not must be taught there too.
const LOCATED = String.raw`^(?!(?:debug|trace|verbose|info)\d*:)(?:(?:\/[\w.+\-]+)*\/?[a-z][\w.+\-]*: (?:line \d+: |\d+: |file \S+ line \d+: |[\w./\-]+\.\w+:\d+(?::\d+)?: |\/[^\s:]*: [A-Za-z])|[\w./+\-]+:\(\.\w+(?:\.\w+)*\+0x[0-9a-f]+\): )`;
const LOCATED_WARNING = new RegExp(`${LOCATED}(?=.*\\b(?:[Ww]arning|WARNING)\\b)`);
const LOCATED_ERROR = new RegExp(LOCATED);
/**
 * Perl's `warn` and `die` name the place at the end, alike (`Use of uninitialized value
 * ... at report.pl line 7.`, `Can't open x: No such file ... at y.pl line 9, <STDIN> line
 * 2.`): at least a warning, worse when its words say worse. Read at the end of the
 * line's start that shapeOf is given: a line longer than that is not read as one.
 */
const LOCATED_AT_END = /^\S.* at \S+ line \d+(?:, <[^>]*> (?:line|chunk) \d+)?\.$/;

/**
 * The severity of a message after a header that is a located complaint (LOCATED_ERROR,
 * LOCATED_WARNING: worse where its words say worse), or undefined. Most messages are none:
 * they pay for one match.
 */
export function locatedLevel(message: string): Severity | undefined {
  if (!LOCATED_ERROR.test(message)) return undefined;
  return Math.min(LOCATED_WARNING.test(message) ? Severity.Warning : Severity.Error, fromWords(message)) as Severity;
}

/**
 * Lines that start a record of their own, with the severity they carry. The forms are those
 * the tools print (Go's runtime, Python, the JVM, Rust, shells, test runners), and a line
 * that begins with a level word.
 */
const OPENERS: [RegExp, Severity, number][] = [
  // TeX's and LaTeX's errors: `! Undefined control sequence.`, `! LaTeX Error: File `x.sty' not found.`
  [/^! (?:[A-Z]|==> )/, Severity.Error, Shape.Opener],
  [/^(?:panic: |fatal error: |thread '[^']*' (?:\(\d+\) )?(?:panicked at|has overflowed its stack)|Segmentation fault|Bus error|Illegal instruction|Aborted|Killed\b|terminate called (?:after throwing an instance of |without an active exception)|ERROR: \w+Sanitizer: |WARNING: \w+Sanitizer: data race|WARNING: DATA RACE$)/, Severity.Critical, Shape.Opener],
  // Python's threading hook heads a thread's uncaught traceback with `Exception in thread poller:`
  // (the JVM quotes the name), its unraisable hook with `Exception ignored in: <function ...>`.
  [new RegExp(`^(?:Exception in thread (?:"|.{1,80}:$)|Exception ignored in: |Uncaught |Unhandled exception|not ok \\d|FAILED\\b|FAIL\\b|--- FAIL: |(?:${utf8('✕|✘|×|✗|●')}) |\\d+ failing\\b|# fail [1-9]|\\d+\\) (?:Failure|Error):)`), Severity.Error, Shape.Opener],
  // Node heads an uncaught error with the place it was thrown, alone at column 0: its own
  // module's (`node:events:502` over `throw er; // Unhandled 'error' event`) or the script's
  // (`/srv/app.js:4` over the source line). It prints one only as the process dies.
  [/^(?:node:[\w/]+|(?:file:\/\/)?\/[^\s:]*\.[cm]?[jt]sx?):\d+$/, Severity.Error, Shape.Opener],
  [/^\[?(?:FATAL|Fatal|fatal|CRITICAL|Critical|critical|EMERG(?:ENCY)?|ALERT|PANIC)\b(?:\]|:| )/, Severity.Critical, Shape.LevelWord],
  [/^\[?(?:ERROR|Error|ERR|error|SEVERE)(?:\[[\w-]+\])?(?:\]|:| |$)/, Severity.Error, Shape.LevelWord],
  [/^\[?(?:WARN(?:ING)?|Warn(?:ing)?|warn(?:ing)?)(?:\[[\w-]+\])?(?:\]|:| )/, Severity.Warning, Shape.LevelWord],
  // A program's or a file position's name, then the level: `gcc: error: x.c: ...`,
  // `x.c:3:5: fatal error: y.h: ...`, `make: *** [all] Error 2` is not one (no colon after).
  [afterName('fatal error|fatal|panic'), Severity.Critical, Shape.LevelWord],
  [afterName('error|ERROR|Error'), Severity.Error, Shape.LevelWord],
  [afterName('warning|WARNING|Warning'), Severity.Warning, Shape.LevelWord],
  // cppcheck's classes below a warning (`x.c:3:15: style: Parameter 'p' can be ...`).
  [afterName('note|NOTE|Note|help|style|performance|portability|information'), Severity.Notice, Shape.LevelWord],
  // A linter's message code after the position, its letter the class (pylint, flake8, ruff:
  // `x.py:11:23: E1120: No value for ...`, `x.py:3:1: W291 trailing whitespace`): conventions,
  // refactorings, docstrings, naming and import order are notices, and so is pycodestyle's
  // layout (E1xx to E7xx: three digits, where pylint's have four); W a warning, E and F errors.
  [linterCode(String.raw`[CRDNI]\d{3,4}|E[1-7]\d\d`), Severity.Notice, Shape.LevelWord],
  [linterCode(String.raw`W\d{3,4}`), Severity.Warning, Shape.LevelWord],
  [linterCode(String.raw`[EF]\d{3,4}`), Severity.Error, Shape.LevelWord],
  [LOCATED_WARNING, Severity.Warning, Shape.LevelWord],
  [LOCATED_ERROR, Severity.Error, Shape.LevelWord],
  [LOCATED_AT_END, Severity.Warning, Shape.LevelWord],
  // rustc's and others' `help:` under an error is advice, whatever its words (`... panicking if ...`).
  [/^\[?(?:NOTICE|Notice|note|hint|help)\b(?:\]|:)/, Severity.Notice, Shape.LevelWord],
  [/^\[?(?:INFO|Info|DEBUG|Debug|TRACE)\b(?:\]|: )/, Severity.Info, Shape.LevelWord],
  [new RegExp(`^(?:ok \\d|(?:${utf8('✔|✓|√')}) )`), Severity.Info, Shape.Opener],
];

export interface LineShape {
  shape: number;
  /** For an opener: the severity its form carries. */
  severity: Severity;
}

/** Leading blanks in columns, a tab counting as 8: only ever compared, never shown. */
export function indentOf(buf: Uint8Array, s: number, e: number): number {
  let cols = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i];
    if (c === 32) cols++;
    else if (c === 9) cols += 8;
    else return cols;
  }
  return -1;
}

/**
 * Answers for lines seen lately, by their text. A service logs the same traces again and
 * again, frame for frame (20,980 of one log's 41,960 indented lines were one frame, and 301
 * texts all of them), and each answer is a function of the text alone: what was asked
 * before changes no answer, only its cost. Cleared when full, so memory stays bounded.
 * Where lines do not repeat (a dump of values, one per line), keeping them costs more than
 * it saves: after a window of asks that found few, the next windows ask nothing of it.
 */
class RecentAnswers<V> {
  readonly #answers = new Map<string, V>();
  readonly #max: number;
  #asked = 0;
  #found = 0;
  /** Windows left to pass without keeping answers. */
  #resting = 0;

  constructor(max: number) {
    this.#max = max;
  }

  get(text: string): V | undefined {
    if (++this.#asked === WINDOW) {
      const found = this.#found;
      this.#asked = 0;
      this.#found = 0;
      if (this.#resting > 0) this.#resting--;
      else if (found < WINDOW / 4) this.#resting = RESTING_WINDOWS;
    }
    if (this.#resting > 0) return undefined;
    const answer = this.#answers.get(text);
    if (answer !== undefined) this.#found++;
    return answer;
  }

  set(text: string, answer: V): void {
    if (this.#resting > 0) return;
    if (this.#answers.size >= this.#max) this.#answers.clear();
    this.#answers.set(text, answer);
  }
}
const WINDOW = 1024;
const RESTING_WINDOWS = 63;

/**
 * Indented lines' shapes (a trace's lines are indented; most of a plain log's other lines
 * are not, and seldom repeat). shapeFromForms reads an indent only as more than none, so
 * an indented line's text alone is its key.
 */
const INDENTED_SHAPES = new RecentAnswers<{ shape: number; severity: Severity }>(4096);

/**
 * The shape of a line that has no header. `text` is the line's start (it need not be
 * whole: every form is decided within its first bytes), `indent` what indentOf gave.
 */
export function shapeOf(text: string, indent: number, out: LineShape): LineShape {
  if (indent <= 0) return shapeFromForms(text, indent, out);
  const known = INDENTED_SHAPES.get(text);
  if (known !== undefined) {
    out.shape = known.shape;
    out.severity = known.severity;
    return out;
  }
  shapeFromForms(text, indent, out);
  INDENTED_SHAPES.set(text, { shape: out.shape, severity: out.severity });
  return out;
}

function shapeFromForms(text: string, indent: number, out: LineShape): LineShape {
  let shape = 0;
  out.severity = Severity.Info;
  if (FRAME.test(text)) shape |= Shape.Frame;
  if (NATIVE_FRAME.test(text)) shape |= Shape.Frame | Shape.NativeFrame;
  if (EXCERPT.test(text)) shape |= EXCERPT_LABEL.test(text) ? Shape.Excerpt | Shape.ExcerptLabel : Shape.Excerpt;
  else if (CARET_LABEL.test(text)) shape |= Shape.Excerpt | Shape.ExcerptLabel;
  if (CAUSE.test(text)) shape |= Shape.Cause;
  const body = indent > 0 ? text.trimStart() : text;
  if (indent === 0) {
    if (CHAIN.test(text)) shape |= Shape.Chain;
    else if (TRACEBACK.test(text)) shape |= Shape.Traceback;
    if (PYTEST_DETAIL.test(text)) shape |= Shape.PytestDetail;
    if (TRACE_MARK.test(text)) shape |= Shape.TraceMark;
    if (CLOSER.test(text)) shape |= Shape.Closer;
    if (REPORT.test(text)) shape |= Shape.Report;
  }
  if (indent === 2 && GROUP_TRACEBACK.test(text)) shape |= Shape.Traceback;
  if (REPORT_CAUSE.test(text)) shape |= Shape.Report | Shape.ReportCause;
  let named = true;
  if (shape === 0 && (EXCEPTION.test(body) || RUBY_EXCEPTION.test(body))) shape |= Shape.Exception;
  else if (shape === 0 && JVM_THROWABLE.test(body)) {
    shape |= Shape.Exception;
    named = false;
  }
  if (DIAGNOSTIC.test(body)) shape |= Shape.Diagnostic;
  if ((shape & ~Shape.Diagnostic) === 0) {
    for (const [re, severity, bit] of OPENERS) {
      if (re.test(body)) {
        shape |= bit;
        // A located complaint's form says only that something went wrong there; its words
        // may say worse (`run.sh: line 9: 4242 Segmentation fault ./worker`).
        out.severity = re === LOCATED_ERROR || re === LOCATED_WARNING || re === LOCATED_AT_END ? (Math.min(severity, fromWords(body)) as Severity) : severity;
        break;
      }
    }
    // A compiler names a line and column to say what is wrong there (Go's names no level):
    // an error unless it declares another. A line alone is a trace's location as often
    // (pytest's `pricing.py:27: KeyError`, `x.py:36: in f`); where its message is neither,
    // a checker says what is wrong on that line (a hook's `settings.ini:1: timeout must be
    // <= 50`, Python's `x.py:12: DeprecationWarning: ...`): a warning, worse where its words say so.
    if (shape === Shape.Diagnostic) {
      if (COMPILER_POSITION.test(body)) out.severity = Severity.Error;
      else if (indent === 0 && !isTraceLocation(body)) out.severity = Math.min(Severity.Warning, fromWords(body)) as Severity;
    }
  } else if (shape & (Shape.Traceback | Shape.Exception)) {
    out.severity = named ? Severity.Error : fromWords(body);
  }
  out.shape = shape;
  return out;
}

/** A position as a trace names one: `x.py:36: in f`, or an exception's line after it (`pricing.py:27: KeyError`). */
function isTraceLocation(diagnostic: string): boolean {
  const message = diagnostic.slice(diagnostic.indexOf(': ') + 2);
  return TRACE_FUNCTION.test(message) || EXCEPTION.test(message);
}
const TRACE_FUNCTION = /^in \S+$/;

/**
 * A line of a diff at column 0, as an assertion's report prints one under its message
 * (node's `+ actual - expected`, then `+       replicas: 0`, `-       replicas: 4`, and
 * `...` for lines skipped): inside such a report it continues the record, however the line
 * before it ended.
 */
const DIFF_LINE = /^(?:[-+] |\.\.\.\s*$)/;

export function isDiffLine(text: string): boolean {
  return DIFF_LINE.test(text);
}

/**
 * A line that reports that a step it ran failed, by its exit status: make's `make: ***
 * [Makefile:5: out/17.txt] Error 3`, a script's `import job exited with status 137`, Go's
 * `exit status 66`, `Process completed with exit code 1.`, ninja's `subcommand failed`. The
 * step's own output comes before it, and its last line says why as often as not (a
 * recipe's `gen.sh: ... has no msgstr`, written with no level).
 */
const FAILED_STEP = /\*\*\* \[[^\]]+\] Error [1-9]|\bexit(?:ed)?(?: with)? (?:code|status):? ?[1-9]|\bsubcommand failed\b/;

export function reportsFailedStep(text: string): boolean {
  return FAILED_STEP.test(text);
}

/**
 * GCC's template context ends with the place in the program's own code that set it off
 * (`m.cpp:6:43:   required from here`), printed before the diagnostic it explains, which
 * often names a library header: that diagnostic belongs with it.
 */
export function requiredFromHere(text: string): boolean {
  return text.endsWith('required from here') && REQUIRED_FROM_HERE.test(text);
}
const REQUIRED_FROM_HERE = /^[\w./\\+-]+:\d+:\d+:\s+required from here$/;

/**
 * Does the line end by announcing more (`:`, `{`, `[`, `(`, `,`, a backslash), or name a
 * failure and nothing of it (Google Test's `ratelimit_test.cpp:12: Failure`, its values on
 * the lines after), or a place whose failure follows (doctest's `File "x.py", line 21, in f`, gfortran's `At line 30 of file x.f90`)?
 */
export function announces(buf: Buffer, s: number, e: number): boolean {
  let i = e - 1;
  while (i >= s && (buf[i] === 32 || buf[i] === 9)) i--;
  if (i < s) return false;
  const c = buf[i];
  if (c === 101 /* e */ && i - s >= 12 && buf[i - 7] === 32 && buf[i - 8] === 58) return BARE_FAILURE.test(latin1(buf, Math.max(s, i - 40), i + 1));
  // A location alone at column 0, the failure it locates on the lines after: doctest's
  // `File "units.py", line 21, in units`, gfortran's `At line 30 of file heat.f90`.
  if (((buf[s] === 70 /* F */ && buf[s + 5] === 34) /* " */ || (buf[s] === 65 /* A */ && buf[s + 1] === 116 /* t */ && buf[s + 2] === 32)) && LOCATION_HEADING.test(latin1(buf, s, Math.min(i + 1, s + 512)))) return true;
  // Tcl's errorInfo names each command on the line after `    while executing` or
  // `    invoked from within`, at column 0 and quoted (`"parse_row "221,99.0,GBP""`).
  if ((c === 103 /* g */ || c === 110 /* n */) && buf[s] === 32 && i - s < 40 && TCL_CONTEXT.test(latin1(buf, s, i + 1))) return true;
  // Node's uncaught error heads its source excerpt with the file and line alone (`/srv/app.js:4`).
  if (c !== undefined && c >= 48 && c <= 57 && (buf[s] === 47 /* / */ || buf[s] === 102 /* f */) && i - s < 512 && SOURCE_LOCATION.test(latin1(buf, s, i + 1))) return true;
  return c === 58 || c === 123 || c === 91 || c === 40 || c === 44 || c === 92;
}

/** Tcl's errorInfo line that announces the command it was running (`    while executing`). */
const TCL_CONTEXT = /^\s+(?:while (?:executing|compiling|evaluating)|invoked from within)$/;
/** A position whose message is the one word `Failure`. */
const BARE_FAILURE = /\.\w+:\d+: Failure$/;
/** A script's file and line standing alone at column 0, as node prints them over an uncaught error's source line. */
const SOURCE_LOCATION = /^(?:file:\/\/)?\/[^\s:]*\.[cm]?[jt]sx?:\d+$/;
/** A location standing alone at column 0, as a heading. */
const LOCATION_HEADING = /^(?:File "[^"]+", line \d+, in \S+|At line \d+ of file \S+)$/;

/**
 * Frames of a language's runtime or of installed packages, not the program's own: the
 * program's first frame is the one worth showing beside a panic or an exception. A frame
 * without a symbol (`#0 0x7f03.. in ???`, gfortran's backtrace into libgfortran) is none.
 * Go's standard library names its functions by package path (`net/http.(*conn).serve.func1()`,
 * `encoding/json.Unmarshal(...)`), with no `at ` before them as Java's frames have; node's
 * native stack names its binary or the C library last (`[node]`, `[/lib/x86_64-linux-gnu/libc.so.6]`).
 */
const RUNTIME_FRAME =
  /(?:^\s*(?:at |\d+: |#\d+ +0x[0-9a-f]+ in |(?:at|by) 0x[0-9A-F]+: )?(?:java\.|javax\.|jdk\.|sun\.|com\.sun\.|kotlin\.|scala\.|std::|core::|alloc::|__rustc::|rust_begin_unwind|__libc_|_start\b|runtime\.|panic\(|testing\.|<unknown>)|^\s*(?:net|sync|os|io|fmt|encoding|database|internal|reflect|strings|strconv|time|context|crypto|bufio|bytes|errors|log|math|sort|syscall|text|html|path|regexp|compress|archive|mime|unicode|hash|image|container|flag|expvar)(?:\/\w+)*\.\S*\(|node:|\(<anonymous>\)|\(native\)|node_modules[\\/]|\/rustc\/|\/usr\/(?:local\/)?(?:lib\/)?go(?:-[\d.]+)?\/src\/|\/lib\/python\d|site-packages|<frozen |libsanitizer|compiler-rt\/|__interceptor_| in \?\?\?|\(in \/|\(\/(?:usr\/)?lib|\[node\]\s*$|\[\/(?:usr\/)?lib|^\s*#\d+ +0x[0-9a-f]+ in \S+ \([^():]*\+0x[0-9a-f]+\))/;

const RUNTIME_FRAMES = new RecentAnswers<boolean>(4096);

export function isRuntimeFrame(text: string): boolean {
  let runtime = RUNTIME_FRAMES.get(text);
  if (runtime === undefined) RUNTIME_FRAMES.set(text, (runtime = RUNTIME_FRAME.test(text)));
  return runtime;
}

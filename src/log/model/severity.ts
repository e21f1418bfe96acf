/**
 * Severities from most to least severe. The numeric value is the rank: lower sorts first.
 * `notice` is where log show's `Default` lands: above info, below warning, because Default
 * is the unified log's ordinary level and its words ("critical", "error") do not count.
 */
export const SEVERITIES = ['critical', 'error', 'warning', 'notice', 'info', 'debug'] as const;
export type SeverityName = (typeof SEVERITIES)[number];

export const Severity = {
  Critical: 0,
  Error: 1,
  Warning: 2,
  Notice: 3,
  Info: 4,
  Debug: 5,
} as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

export const SEVERITY_COUNT = SEVERITIES.length;

export function severityName(s: Severity): SeverityName {
  return SEVERITIES[s] as SeverityName;
}

/** Syslog and journal PRIORITY values 0..7. */
export function fromSyslogPriority(p: number): Severity {
  if (p <= 2) return Severity.Critical;
  if (p === 3) return Severity.Error;
  if (p === 4) return Severity.Warning;
  if (p === 5) return Severity.Notice;
  if (p === 6) return Severity.Info;
  return Severity.Debug;
}

/** pino and bunyan numeric levels: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal. */
export function fromPinoLevel(n: number): Severity {
  if (n >= 60) return Severity.Critical;
  if (n >= 50) return Severity.Error;
  if (n >= 40) return Severity.Warning;
  if (n >= 30) return Severity.Info;
  return Severity.Debug;
}

const LEVEL_WORDS: Record<string, Severity> = {
  emerg: Severity.Critical,
  emergency: Severity.Critical,
  alert: Severity.Critical,
  crit: Severity.Critical,
  critical: Severity.Critical,
  fatal: Severity.Critical,
  panic: Severity.Critical,
  fault: Severity.Critical,
  dpanic: Severity.Critical,
  error: Severity.Error,
  err: Severity.Error,
  eror: Severity.Error,
  severe: Severity.Error,
  warn: Severity.Warning,
  warning: Severity.Warning,
  wrn: Severity.Warning,
  notice: Severity.Notice,
  default: Severity.Notice,
  info: Severity.Info,
  inf: Severity.Info,
  information: Severity.Info,
  informational: Severity.Info,
  // PostgreSQL's level for what it reports in the normal course (`LOG:  checkpoint starting`).
  log: Severity.Info,
  debug: Severity.Debug,
  dbg: Severity.Debug,
  trace: Severity.Debug,
  trc: Severity.Debug,
  verbose: Severity.Debug,
  fine: Severity.Debug,
  finer: Severity.Debug,
  finest: Severity.Debug,
};

/** log show's message types (its `Type` column, ndjson's `messageType`), as it writes them: Default is its ordinary level. */
export const LOGSHOW_TYPES: Readonly<Record<string, Severity>> = {
  Default: Severity.Notice,
  Info: Severity.Info,
  Debug: Severity.Debug,
  Error: Severity.Error,
  Fault: Severity.Critical,
  Activity: Severity.Info,
  Signpost: Severity.Info,
};

/** Every level word fromLevelWord knows, in lower case. */
export const LEVEL_NAMES: readonly string[] = Object.keys(LEVEL_WORDS);

const BY_WORD = new Map<string, Severity>(Object.entries(LEVEL_WORDS));

/** A declared level token (`ERROR`, `warn`, `Info`); undefined when the word is no level name (`constructor` included). */
export function fromLevelWord(word: string): Severity | undefined {
  return BY_WORD.get(word.toLowerCase());
}

// Used only when a line declares no level: the words a human would scan for.
const CRITICAL_WORDS = /\b(?:fatal|panic(?:ked)?|crashed|(?:killed|terminated) by signal|critical|emerg(?:ency)?|segfault|segmentation fault|core dumped|(?:file size|cpu time) limit exceeded|out of memory|oom-kill|illegal instruction|bus error|stack smashing detected|double free|sig(?:segv|bus|ill|fpe|abrt)\b|problematic frame)/i;
const ERROR_WORDS =
  /\b(?:errors?|exception|fail(?:ed|ures?|s|ing)?|traceback|(?:merge )?conflicts?|denied|refused|abort(?:ed)?|unhandled|cannot|can't|could not|couldn't|unable to|invalid|timed? ?out|no such file or directory|command not found|address already in use|connection reset|broken pipe|no space left on device|(?:disk )?quota exceeded|too many open files|no route to host|network is unreachable|read-only file system|deadline exceeded|no such host|i\/o timeout|unexpected eof|unexpected end of file|unknown authority|signal: killed|divi(?:sion|de) by zero|violat(?:es|ed|ions?)|corrupt(?:ed|ion)?|bad crc|crc error|checksum mismatch|(?:exit(?:ed)?|finished|returned|terminated) with (?:status|code|exit code) [1-9]\d*|exit (?:status|code) [1-9]\d*)\b/i;
// A warning's class names it at its end (node's `(node:41) MaxListenersExceededWarning: ...`, Python's `UserWarning:`).
const WARNING_WORDS = /\b(?:warn(?:ing)?s?|deprecated|retry(?:ing)?|\w+warning(?=:))\b/i;

/**
 * The words a line must hold one of, in any case, for fromWords to find trouble in it: one
 * pass that rules out most lines before the three family tests run. The native chunk pass
 * reads the same list (header-native.ts lays it out): a header line that declares no level
 * and holds none of them in its first WORDS_BYTES is read there as Info, as fromWords reads it.
 */
export const TROUBLE_WORDS: readonly string[] = [
  'conflict', 'fatal', 'panic', 'crashed', 'by signal', 'critical', 'emerg', 'segfault', 'segmentation', 'core dumped', 'out of memory',
  'oom-kill', 'illegal instr', 'err', 'double free', 'smashing', 'by zero', 'violat', 'corrupt', 'crc', 'checksum mismatch', 'exception',
  'fail', 'traceback', 'denied', 'refused', 'abort', 'unhandled', 'cannot', "can't", 'could not', "couldn't", 'unable to', 'invalid', 'timed',
  'time out', 'warn', 'deprecated', 'retry', 'no such file', 'not found', 'exit', 'with status', 'with code',
  // The system's and Go's error strings (strerror, net, crypto/x509, os/exec), which name no error word.
  'already in use', 'connection reset', 'broken pipe', 'no space left', 'quota exceeded', 'too many open', 'no route to host', 'is unreachable',
  'read-only file', 'deadline exceeded', 'no such host', 'i/o timeout', 'unexpected eof', 'unknown authority', 'signal: killed',
  // The shell's word for a process a resource limit's signal ended (SIGXFSZ, SIGXCPU); gzip's and the shell's for input cut short.
  'limit exceeded', 'unexpected end of file',
  // A crash's signal by its name alone, and the frame it names, as a JVM's fatal error report
  // gives them (`#  SIGSEGV (0xb) at pc=...`, `# Problematic frame:`).
  'sigsegv', 'sigbus', 'sigill', 'sigfpe', 'sigabrt', 'problematic frame',
];
const ANY_WORD = new RegExp(TROUBLE_WORDS.join('|'), 'i');

/** How much of a line's message, from its start, the words of a line that declares no level are read in. */
export const WORDS_BYTES = 500;

/**
 * What says nothing went wrong though it holds such a word: a count of none (`0 failed`,
 * `# fail 0`, `Errors: 0`, `failed=0`, `no errors`) and a path (`rootdir: /src/pytest-fail`,
 * `https://host/api/errors`), a package and its version (`http-errors@2.0.0`, npm's
 * `placeDep ROOT es-errors@1.3.0`), and a checker naming what it looks for (valgrind's banner,
 * `Memcheck, a memory error detector`), and a word hyphens join inside a name (a package's,
 * `libgpg-error-dev`, `golang-github-pkg-errors-dev`). Taken out before a word decides a severity.
 */
const NO_TROUBLE =
  /(?<=[A-Za-z0-9]-)(?:errors?|fail(?:ed|ures?|s|ing)?|fatal|panic|exceptions?|crash(?:ed|es)?)(?=-[A-Za-z0-9])|\b(?:[\w-]+ )?error detectors?\b|\b(?:0|no|zero)\s+(?:errors?|fail(?:ed|ures?|s|ing)?|exceptions?|warnings?|problems?|conflicts?|violations?|corruption)\b|\b(?:errors?|fail(?:ed|ures?|s|ing)?|exceptions?|warnings?)\s*[:=]?\s*0\b(?![.,]\d)|(?:^|(?<=[\s'"(=:[]))(?:~|\.{1,2})?\/[^\s'"()\],]+|[\w.-]+(?:\/[\w.-]+){2,}|(?<![\w.@/-])@?[\w.-]+(?:\/[\w.-]+)?@[~^]?\d[\w.+-]*/gi;

export function fromWords(text: string): Severity {
  if (!ANY_WORD.test(text)) return Severity.Info;
  // Rarely needed: only a line that matched a family's words is read again without them.
  let plain: string | undefined;
  const holds = (words: RegExp): boolean => words.test(text) && words.test((plain ??= text.replace(NO_TROUBLE, ' ')));
  if (holds(CRITICAL_WORDS)) return Severity.Critical;
  if (holds(ERROR_WORDS)) return Severity.Error;
  if (holds(WARNING_WORDS)) return Severity.Warning;
  return Severity.Info;
}

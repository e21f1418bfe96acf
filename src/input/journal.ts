/**
 * The system log as a LogSource: the systemd journal on Linux (libsystemd opened at run
 * time by wisp's native library), the unified log through OSLogStore on macOS.
 *
 * Linux lines carry the entry's syslog priority, `<PRI>2026-10-04T03:02:15.445+0200
 * ident[pid]: message`, which wisp's log parser reads as the declared severity: 0-2
 * critical, 3 error, 4 warning, 5 notice, 6 info, 7 debug. log show's compact style was
 * the other choice; it has no warning type, so journal warnings (common: the kernel's,
 * systemd's) would have been ranked as errors or hidden among notices. An entry without
 * PRIORITY gets no `<PRI>` and its severity comes from its words. macOS lines are compact
 * style, whose types are the unified log's own levels.
 */
import { readFileSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { WispError } from '../core/errors.js';
import { fileError } from './file-errors.js';
import type { LogSource } from './sources.js';

/** The longest window `last` may name. */
export const MAX_LAST_SECONDS = 24 * 60 * 60;
/** Bytes asked of the native library per batch: about one read chunk. */
const BATCH_BYTES = 1024 * 1024;
/** Filter values: printable, bounded (a journal match is `FIELD=value` and must be one line). */
const MAX_FILTER_CHARS = 256;

export interface JournalSourceOptions {
  /** How far back to read: `90s`, `10m`, `2h`, `1d`; at most a day. */
  last: string;
  /** Linux: _COMM (first 15 bytes) or SYSLOG_IDENTIFIER, exact. macOS: the process name. */
  process?: string;
  /** Linux: the systemd unit (`.service` added to a bare name). macOS: the subsystem. */
  subsystem?: string;
  /** A journal file (Linux) or .logarchive (macOS) to read instead of this machine's log. */
  file?: string;
  /** The window's end, ms since the epoch; default: the time open() runs. */
  now?: number;
  signal?: AbortSignal;
}

/** A LogSource that also says, once opened, what it could not see. */
export interface JournalSource extends LogSource {
  /** Filled by open(): limits of the view, for the caller to show. */
  readonly notes: string[];
}

/** `10m` → 600. Throws WISP_BAD_ARGUMENT for anything but a positive span of at most a day. */
export function parseLast(last: string): number {
  const m = /^(\d{1,6})([smhd])$/.exec(last.trim());
  if (m === null) {
    throw new WispError('WISP_BAD_ARGUMENT', `--last takes a span such as 90s, 10m, 2h or 1d, got '${last}'`);
  }
  const unit = m[2] === 's' ? 1 : m[2] === 'm' ? 60 : m[2] === 'h' ? 3600 : 86_400;
  const seconds = Number(m[1]) * unit;
  if (seconds < 1) throw new WispError('WISP_BAD_ARGUMENT', `--last must be at least 1s, got '${last}'`);
  if (seconds > MAX_LAST_SECONDS) {
    throw new WispError('WISP_BAD_ARGUMENT', `--last is at most a day (1d or 24h), got '${last}'`, { hint: 'read a shorter window' });
  }
  return seconds;
}

function checkFilter(flag: string, value: string | undefined): string {
  if (value === undefined) return '';
  if (value.length === 0 || value.length > MAX_FILTER_CHARS || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new WispError('WISP_BAD_ARGUMENT', `${flag} takes a name of 1 to ${MAX_FILTER_CHARS} printable characters, got ${JSON.stringify(value.slice(0, 40))}`);
  }
  return value;
}

/** Validates everything up front: a bad option throws here, before anything is read. */
export function journalSource(options: JournalSourceOptions): JournalSource {
  const seconds = parseLast(options.last);
  const process_ = checkFilter('--process', options.process);
  const subsystem = checkFilter('--subsystem', options.subsystem);
  if (options.file !== undefined && (typeof options.file !== 'string' || options.file === '')) {
    throw new WispError('WISP_BAD_ARGUMENT', 'a journal file path must be a non-empty string');
  }
  if (options.now !== undefined && !Number.isFinite(options.now)) {
    throw new WispError('WISP_BAD_ARGUMENT', 'now must be a time in ms since the epoch');
  }
  const filters = [process_ && `process ${process_}`, subsystem && `subsystem ${subsystem}`].filter((s) => s !== '');
  const what = options.file ?? (globalThis.process.platform === 'darwin' ? 'unified log' : 'journal');
  const name = `${what} (last ${options.last.trim()}${filters.length > 0 ? `, ${filters.join(', ')}` : ''})`;
  const notes: string[] = [];

  return {
    name,
    notes,
    async open() {
      if (options.file !== undefined) await checkFile(options.file);
      const now = options.now ?? Date.now();
      const sinceUsec = Math.max(0, Math.round((now - seconds * 1000) * 1000));
      // The native library (and koffi) load only when the system log is read.
      const { openSystemLog } = await import('../native/system-log.js');
      const reader = await openSystemLog(
        { sinceUsec, untilUsec: Math.round(now * 1000), process: process_, subsystem, file: options.file },
        options.signal,
      );
      if (!reader.hasFiles) {
        reader.close();
        throw new WispError(
          'WISP_UNAVAILABLE',
          'no systemd journal files can be read here (none in /var/log/journal or /run/log/journal, or none this user may read)',
          { hint: 'on a machine without journald there is no system log to read; a log file can be named instead' },
        );
      }
      notes.push(...viewLimits(options.file !== undefined));
      async function* chunks(): AsyncGenerator<Buffer> {
        try {
          for (;;) {
            const batch = await reader.next(BATCH_BYTES, options.signal);
            if (batch === undefined) return;
            if (batch.length > 0) yield batch;
          }
        } finally {
          reader.close();
        }
      }
      return { size: undefined, gzip: false, chunks: chunks() };
    },
  };
}

async function checkFile(path: string): Promise<void> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    throw fileError(path, err, 'a journal file');
  }
  const archive = globalThis.process.platform === 'darwin' && path.endsWith('.logarchive');
  if (!info.isFile() && !(archive && info.isDirectory())) throw new WispError('WISP_NOT_A_FILE', `${path} is not a journal file`);
}

/**
 * What the reader may not see. On Linux the system journal is readable by root and the
 * systemd-journal, adm and wheel groups; anyone else sees only their own user journal.
 */
function viewLimits(fromFile: boolean): string[] {
  if (fromFile || globalThis.process.platform !== 'linux') return [];
  const uid = globalThis.process.getuid?.() ?? 0;
  if (uid === 0) return [];
  const groups = new Set(globalThis.process.getgroups?.() ?? []);
  const privileged = readGroupIds(['systemd-journal', 'adm', 'wheel']);
  if (privileged.some((g) => groups.has(g))) return [];
  return ['read without root or the systemd-journal/adm group: only this user\'s journal, not the system\'s'];
}

function readGroupIds(names: string[]): number[] {
  try {
    return readFileSync('/etc/group', 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .filter((f) => names.includes(f[0] ?? ''))
      .map((f) => Number(f[2]))
      .filter((n) => Number.isInteger(n));
  } catch {
    return [];
  }
}

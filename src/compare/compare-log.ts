import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { isWispError, WispError } from '../core/errors.js';
import { condenseLogState, condenseLogToPartial } from '../log/index.js';
import type { LogState } from '../log/model/state.js';
import { resolveLogOptions, type CondenseLogOptions } from '../log/options.js';
import type { CrashResult } from '../log/model/result.js';
import { mergePartialFiles, PARTIAL_FORMAT, type PartialFile } from '../log/merge/partial-file.js';
import { readPartial } from '../log/merge/partial-io.js';
import { fileSource, type LogSource } from '../input/sources.js';
import { WISP_VERSION } from '../core/version.js';
import { compareCrashes } from './compare-crashes.js';
import { compareStates } from './compare-states.js';
import type { CompareResult } from './result.js';

/** A baseline input: a log to condense, or a partial written by `wisp log --emit-partial`. */
export type BaselineItem = { kind: 'log'; source: LogSource } | { kind: 'partial'; path: string; name: string };

/** Enough of a file's head to tell a partial (JSON whose first key is its format) from a log. */
const SNIFF_BYTES = 64;
const PARTIAL_HEAD = new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${PARTIAL_FORMAT}"`);

/** A file named as a baseline, as a partial when its head says it is one, else as a log. */
export async function baselineItem(path: string, name = path): Promise<BaselineItem> {
  return (await looksLikePartial(path)) ? { kind: 'partial', path, name } : { kind: 'log', source: { ...fileSource(path), name } };
}

async function looksLikePartial(path: string): Promise<boolean> {
  let head: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    // Reading it as a log says what is wrong with it, in its place.
    return false;
  }
  if (head[0] === 0x1f && head[1] === 0x8b) {
    try {
      // Only the head is here: a cut stream is not an error.
      head = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      return false;
    }
  }
  return PARTIAL_HEAD.test(head.subarray(0, SNIFF_BYTES).toString('utf8'));
}

/**
 * Condenses the baseline into one merged state. Every input must be read: an input that
 * cannot be is an error naming it, not a comparison with less than was asked for.
 */
export async function baselineState(items: BaselineItem[], options: CondenseLogOptions): Promise<LogState | CrashResult> {
  if (items.length === 0) throw new WispError('WISP_BAD_ARGUMENT', 'no baseline given');
  const strict: CondenseLogOptions = { ...options, skipBadInputs: false };
  delete strict.tap;
  delete strict.onProgress;
  return named(async () => {
    let state: LogState | CrashResult;
    if (items.every((i) => i.kind === 'log')) {
      state = await condenseLogState(items.map((i) => (i as { source: LogSource }).source), strict);
    } else {
      // Partials and logs in the order given, merged as `wisp merge` merges partials.
      const files: PartialFile[] = [];
      const notes: string[] = [];
      for (const item of items) {
        if (item.kind === 'partial') {
          const partial = await readPartial(item.path);
          files.push(partial);
          notes.push(`read from the partial ${item.name} (written by ${partial.writtenBy})`);
        } else {
          files.push(await condenseLogToPartial([item.source], strict, `wisp ${WISP_VERSION}`));
        }
      }
      state = mergePartialFiles(files);
      state.read.notes.push(...notes);
    }
    if (state.kind === 'merged' && state.merged.lines - state.merged.skipped === 0) {
      const names = items.map((i) => (i.kind === 'log' ? i.source.name : i.name)).join(', ');
      throw new WispError('WISP_EMPTY_INPUT', `${names} holds no log lines: there is nothing to compare with`);
    }
    return state;
  });
}

/** A baseline's errors say that it is the baseline that failed. */
async function named<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isWispError(err) || err.code === 'WISP_CANCELLED') throw err;
    throw new WispError(err.code, `baseline: ${err.message}`, { hint: err.hint, cause: err });
  }
}

/**
 * condense_log against a baseline: both runs condensed (the baseline first), then
 * compared. Two crash reports are compared as crashes; a crash report and a log are not
 * compared at all.
 */
export async function compareLog(
  now: LogSource[],
  baseline: BaselineItem[],
  options: CondenseLogOptions = {},
): Promise<CompareResult> {
  const top = resolveLogOptions(options).top;
  const was = await baselineState(baseline, options);
  const is = await condenseLogState(now, options);
  return compareCondensed(is, was, now[0]?.name ?? 'this run', top);
}

/** Compares two condensed runs (merged states or crash reports). */
export function compareCondensed(now: LogState | CrashResult, baseline: LogState | CrashResult, nowName: string, top: number): CompareResult {
  const nowCrash = now.kind === 'crash';
  const wasCrash = baseline.kind === 'crash';
  if (nowCrash && wasCrash) return compareCrashes(now, baseline);
  if (nowCrash || wasCrash) {
    const which = nowCrash ? `${nowName} is a crash report and the baseline is a log` : `the baseline ${(baseline as CrashResult).read.inputs[0]!.name} is a crash report and ${nowName} is a log`;
    throw new WispError('WISP_BAD_ARGUMENT', `${which}: a crash report is compared only with another crash report`, { hint: 'compare a crash report with an earlier crash report of the same program, or a log with a log' });
  }
  return compareStates(now, baseline, top);
}

import { WispError } from '../../core/errors.js';
import type { LogPartial } from '../model/partial.js';
import type { LogRead } from '../model/result.js';
import type { LogState } from '../model/state.js';
import { LogMerger, partialOf } from './log-merger.js';

export const PARTIAL_FORMAT = 'wisp-log-partial';
/** 2: records never cross spans (no lead), groups carry exampleMoreLines. 3: a group's key holds its program frame (site). */
export const PARTIAL_VERSION = 3;

/**
 * A condensed span of an archive, written to be merged with others: what was read (its
 * inputs, in order) and the merged state of its groups. Self-describing and versioned, so a
 * merge refuses what it cannot read rather than guess.
 */
export interface PartialFile {
  format: typeof PARTIAL_FORMAT;
  version: typeof PARTIAL_VERSION;
  /** Which wisp wrote it, for a reader's error messages. */
  writtenBy: string;
  read: LogRead;
  state: LogPartial;
}

export function toPartialFile(state: LogState, writtenBy: string): PartialFile {
  return { format: PARTIAL_FORMAT, version: PARTIAL_VERSION, writtenBy, read: state.read, state: partialOf(state.merged) };
}

export function parsePartialFile(text: string, name: string): PartialFile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // The parser's message quotes the input, which may be binary: name the file only.
    throw new WispError('WISP_NOT_JSON', `${name} is not a wisp partial (not JSON)`, { hint: 'write partials with wisp log --emit-partial' });
  }
  const p = v as Partial<PartialFile> | null;
  if (p === null || typeof p !== 'object' || p.format !== PARTIAL_FORMAT) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} is not a wisp partial (no "format": "${PARTIAL_FORMAT}")`, { hint: 'write partials with wisp log --emit-partial' });
  }
  if (p.version !== PARTIAL_VERSION) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} is a version ${String(p.version)} partial (written by ${String(p.writtenBy)}); this wisp reads version ${PARTIAL_VERSION}`);
  }
  if (typeof p.read !== 'object' || p.read === null || !Array.isArray(p.read.inputs) || typeof p.state !== 'object' || p.state === null || !Array.isArray(p.state.groups)) {
    throw new WispError('WISP_BAD_ARGUMENT', `${name} is a damaged wisp partial (read or state missing)`);
  }
  return p as PartialFile;
}

/**
 * Merges partials in the order given into one state: the same state a single run over all
 * their inputs, in that order, would have (merging is associative; see LogMerger).
 */
export function mergePartialFiles(files: PartialFile[]): LogState {
  const merger = new LogMerger();
  const read: LogRead = { inputs: [], bytes: 0, lines: 0, skippedHeadBytes: 0, cutLines: 0, frameLines: 0, skippedInputs: [], notes: [] };
  for (const f of files) {
    const base = merger.lines;
    const inputOffset = read.inputs.length;
    merger.startInput();
    merger.add(f.state, undefined, inputOffset);
    for (const input of f.read.inputs) read.inputs.push({ ...input, firstLine: input.firstLine > 0 ? input.firstLine + base : 0 });
    read.bytes += f.read.bytes;
    read.skippedHeadBytes += f.read.skippedHeadBytes;
    read.skippedInputs.push(...f.read.skippedInputs);
    read.notes.push(...f.read.notes);
    if (f.read.crashes !== undefined) (read.crashes ??= []).push(...f.read.crashes);
    // The tail is the last input's: its line numbers move with the lines before it.
    if (f.read.tail !== undefined) read.tail = f.read.tail.map((l) => ({ line: l.line + base, text: l.text }));
  }
  const merged = merger.finish();
  read.lines = merged.lines;
  read.cutLines = merged.cut;
  read.frameLines = files.reduce((n, f) => n + f.read.frameLines, 0);
  return { kind: 'merged', merged, read };
}

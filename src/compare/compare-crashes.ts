import type { CrashFrame, CrashReport } from '../crash/index.js';
import type { CrashResult } from '../log/model/result.js';
import { redact } from '../redact/index.js';
import type { CrashComparison } from './result.js';
import { unmatchedTokens } from './tokens.js';

/**
 * Two crash reports compared by what a developer compares: the exception (type, signal,
 * subtype, message) and the faulting thread's top frames by image and symbol. Addresses
 * and offsets move with every launch (ASLR), so they are left out; a frame without a
 * symbol is its image alone.
 */
export function compareCrashes(now: CrashResult, baseline: CrashResult): CrashComparison {
  const a = side(now);
  const b = side(baseline);
  const { a: onlyNow, b: onlyWas } = unmatchedTokens(a.frames, b.frames);
  let first = -1;
  for (let i = 0; i < Math.max(a.frames.length, b.frames.length); i++) {
    if (a.frames[i] !== b.frames[i]) {
      first = i;
      break;
    }
  }
  return {
    kind: 'crash-comparison',
    now: a,
    baseline: b,
    sameException: a.exception === b.exception,
    newFrames: onlyNow.map((i) => a.frames[i]!),
    goneFrames: onlyWas.map((i) => b.frames[i]!),
    firstDifference: first,
  };
}

function side(r: CrashResult): CrashComparison['now'] {
  return { name: r.read.inputs[0]!.name, format: r.format, exception: redact(exceptionOf(r.report)), frames: framesOf(r.report).map((f) => redact(frameName(f))) };
}

function exceptionOf(r: CrashReport): string {
  const e = r.exception;
  const parts = [e?.type, e?.signal, e?.subtype, e?.message].filter((p): p is string => p !== undefined && p !== '');
  if (parts.length === 0 && r.termination?.reasons !== undefined) parts.push(...r.termination.reasons);
  return parts.length > 0 ? parts.join(', ') : '(none stated)';
}

/** The faulting thread's frames, or the last exception's backtrace where the report has no faulting thread. */
function framesOf(r: CrashReport): CrashFrame[] {
  return r.faultingThread?.frames ?? r.lastExceptionBacktrace ?? [];
}

/** `image symbol` with the offset dropped: `-[__NSArrayM objectAtIndex:] + 180` is `-[__NSArrayM objectAtIndex:]`. */
function frameName(f: CrashFrame): string {
  const symbol = f.symbol.startsWith('0x') ? '' : f.symbol.replace(/\s*\+\s*\d+$/, '');
  return symbol === '' ? f.image : `${f.image} ${symbol}`;
}

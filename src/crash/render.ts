/**
 * The compact text an agent reads: identity, exception, termination, ASI, then the crashed
 * thread's top frames in Apple's own frame layout, so the lines look like the report the
 * developer has seen. Every line goes through redact() before it is returned.
 */

import { redact } from '../redact/index.js';
import type { CrashFrame, CrashReport, CrashThread } from './types.js';

/** Apple pads image names to 30 columns; wider names push the address right instead. */
const IMAGE_COLUMN = 30;

export function renderCrashReport(r: CrashReport): string {
  const lines: string[] = [];
  lines.push(identityLine(r));
  if (r.path !== undefined) lines.push(`path: ${r.path}`);
  const when = [
    r.os !== undefined ? `os: ${r.os}` : undefined,
    r.timestamp !== undefined ? `time: ${r.timestamp}` : undefined,
    r.incident !== undefined ? `incident: ${r.incident}` : undefined,
  ].filter((s): s is string => s !== undefined);
  if (when.length > 0) lines.push(when.join(' | '));

  if (r.exception) lines.push(...exceptionLines(r.exception));
  if (r.termination) lines.push(...terminationLines(r.termination));
  if (r.asi && r.asi.length > 0) {
    lines.push('application specific information:');
    for (const message of r.asi) lines.push(...indent(message, '  '));
  }
  if (r.faultingThread) lines.push(...threadLines(r.faultingThread));
  else if (r.kind !== 'ips-other') lines.push('crashed thread: not found in the report');
  if (r.lastExceptionBacktrace && r.lastExceptionBacktrace.length > 0) {
    const total = r.lastExceptionBacktraceTotal ?? r.lastExceptionBacktrace.length;
    lines.push(`last exception backtrace (${shownOf(r.lastExceptionBacktrace.length, total)}):`);
    lines.push(...frameLines(r.lastExceptionBacktrace));
  }
  if (r.notes.length > 0) {
    lines.push('notes:');
    for (const note of r.notes) lines.push(...indent(note, '  - '));
  }
  return lines.map((l) => redact(l)).join('\n') + '\n';
}

function identityLine(r: CrashReport): string {
  const what =
    r.kind === 'ips-other'
      ? `not a process crash: .ips bug_type ${r.bugType ?? '?'} (${r.bugTypeMeaning ?? 'unknown'})`
      : r.kind === 'ips'
        ? `crash report (.ips, bug_type ${r.bugType ?? '?'})`
        : 'crash report (legacy text)';
  const who: string[] = [];
  if (r.process !== undefined) who.push(r.pid !== undefined ? `${r.process} [${r.pid}]` : r.process);
  if (r.version !== undefined) who.push(`version ${r.version}`);
  if (r.bundleId !== undefined && r.bundleId !== r.process) who.push(r.bundleId);
  return who.length > 0 ? `${what}: ${who.join(', ')}` : what;
}

function exceptionLines(e: NonNullable<CrashReport['exception']>): string[] {
  const parts: string[] = [];
  if (e.type !== undefined) parts.push(e.signal !== undefined ? `${e.type} (${e.signal})` : e.type);
  else if (e.signal !== undefined) parts.push(e.signal);
  if (e.subtype !== undefined) parts.push(e.subtype);
  if (e.codes !== undefined) parts.push(`codes ${e.codes}`);
  const lines = [`exception: ${parts.join(', ')}`];
  if (e.message !== undefined) lines.push(...indent(e.message, '  message: '));
  return lines;
}

function terminationLines(t: NonNullable<CrashReport['termination']>): string[] {
  const parts: string[] = [];
  if (t.namespace !== undefined) parts.push(`namespace ${t.namespace}`);
  if (t.code !== undefined) parts.push(`code ${t.code}`);
  if (t.indicator !== undefined) parts.push(t.indicator);
  if (t.byProc !== undefined) parts.push(`by ${t.byProc}`);
  const lines = [`termination: ${parts.join(', ')}`];
  for (const reason of t.reasons ?? []) lines.push(...indent(reason, '  '));
  return lines;
}

function threadLines(t: CrashThread): string[] {
  const label = [`crashed thread ${t.index}`];
  if (t.name !== undefined) label.push(`"${t.name}"`);
  if (t.queue !== undefined) label.push(`queue ${t.queue}`);
  return [`${label.join(' ')} (${shownOf(t.frames.length, t.framesTotal)}):`, ...frameLines(t.frames)];
}

function shownOf(shown: number, total: number): string {
  return shown === total ? `${total} frame${total === 1 ? '' : 's'}` : `top ${shown} of ${total} frames`;
}

/** `3   TCC                           0x7ff807b0f5c2 __TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__ + 142` */
function frameLines(frames: CrashFrame[]): string[] {
  const width = Math.min(IMAGE_COLUMN, Math.max(0, ...frames.map((f) => f.image.length)));
  return frames.map((f) => {
    const source = f.source !== undefined ? ` (${f.source})` : '';
    return `${String(f.index).padEnd(3)} ${f.image.padEnd(width)} ${f.address} ${f.symbol}${source}`;
  });
}

/** A possibly multi-line text as lines: the prefix on the first, its width of spaces after. */
function indent(text: string, prefix: string): string[] {
  const pad = ' '.repeat(prefix.length);
  return text.split('\n').map((l, i) => `${i === 0 ? prefix : pad}${l.trimEnd()}`);
}

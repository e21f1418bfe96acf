/**
 * .ips files that are not the crash of one process: jetsam, panics, stackshots, forced
 * resets, resource reports. wisp names them and lifts a line or two from the body when an
 * obvious one is there, and never fails on their body: its shape varies by bug_type and OS.
 */

import { reportFromHeader, type IpsHeader } from './ips.js';
import { arrayOf, isObject, str, type JsonObject } from './json-body.js';
import type { CrashReport } from './types.js';
import { clipWithCount } from './util.js';

export function parseIpsOther(header: IpsHeader, bodyText: string): CrashReport {
  const report = reportFromHeader('ips-other', header);
  report.notes.push(
    `bug_type ${header.bugType} (${report.bugTypeMeaning}) is not the crash of a single process; only its header and headline are summarised`,
  );
  const body = tryParseObject(bodyText);
  if (body) {
    // Panics and forced resets: the first line of the panic string says what happened.
    const panic = str(body.panicString) ?? str(body.string);
    const headline = panic?.split('\n').find((l) => l.trim().length > 0);
    if (headline !== undefined) report.notes.push(`panic: ${clipWithCount(headline.trim(), 300)}`);
    // Jetsam: who was biggest when memory ran out.
    const largest = str(body.largestProcess);
    if (largest !== undefined) report.notes.push(`largest process: ${largest}`);
    const reason = str(body.reason);
    if (reason !== undefined) report.notes.push(`reason: ${clipWithCount(reason, 300)}`);
    if (report.os === undefined) {
      const build = str(body.build);
      if (build !== undefined) report.os = build;
    }
    const notes = arrayOf(body.notes).filter((n): n is string => typeof n === 'string');
    for (const n of notes.slice(0, 3)) report.notes.push(`report note: ${clipWithCount(n, 300)}`);
  } else {
    // Older bodies are text (legacy stackshots): a `Reason:` line is the headline.
    const reason = /^Reason:\s*(.+)$/m.exec(bodyText)?.[1];
    if (reason !== undefined) report.notes.push(`reason: ${clipWithCount(reason.trim(), 300)}`);
  }
  return report;
}

function tryParseObject(text: string): JsonObject | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Apple crash reports for condense_log: recognise them, parse them into a CrashReport, and
 * render the part a developer acts on.
 *
 * Formats, newest first:
 * - `.ips` (macOS 12+ / iOS 15+): JSON header line + JSON body. bug_type 309 is a crash;
 *   109 has a legacy text body; other bug types are system events, named but not dissected.
 * - Console's "Translated Report (Full Report Below)": legacy text, then the .ips itself.
 * - Legacy `.crash` text.
 */

import { WispError } from '../core/errors.js';
import { isSingleProcessCrash } from './bug-types.js';
import { parseIpsJsonCrash, readIpsHeader, reportFromHeader, type IpsHeader } from './ips.js';
import { isObject } from './json-body.js';
import { parseLegacyCrash } from './legacy.js';
import { parseIpsOther } from './other.js';
import { redactReport } from './redact-report.js';
import type { CrashReport } from './types.js';
import { assign } from './util.js';

export type { CrashException, CrashFrame, CrashReport, CrashTermination, CrashThread } from './types.js';
export { TOP_FRAMES } from './types.js';
export { renderCrashReport } from './render.js';

const TRANSLATED_MARKER = 'Translated Report (Full Report Below)';
const FULL_REPORT_MARKER = /\n-{5,}\nFull Report\n-{5,}\n/;
/** Header keys no log line uses, for a head that ends before `bug_type`. */
const IPS_HEADER_KEYS = ['slice_uuid', 'share_with_app_devs', 'is_first_party', 'app_name', 'roots_installed', 'incident_id'];

/**
 * Cheap sniff on the first bytes (header line): true for an .ips (JSON header with
 * bug_type) or a legacy .crash text. A JSON-lines log (objects with "level", no bug_type)
 * and ordinary log lines are not crash reports.
 */
export function looksLikeCrashReport(head: string): boolean {
  const text = stripPreamble(head);
  if (text.startsWith('{')) {
    const firstLine = text.split('\n', 1)[0] ?? '';
    const header = readIpsHeader(firstLine);
    if (header) return looksLikeIpsHeader(header);
    // The head may end inside the header line, or the file may be a header-less body.
    if (/"level"\s*:/.test(firstLine)) return false;
    if (/"bug_type"\s*:\s*"?\d+/.test(firstLine.length > 1 ? firstLine : text)) return true;
    // Cut before bug_type: keys only an .ips header has are evidence enough.
    return IPS_HEADER_KEYS.filter((k) => firstLine.includes(`"${k}":`)).length >= 2;
  }
  if (text.startsWith('-') && text.slice(0, 200).includes(TRANSLATED_MARKER)) return true;
  const lines = text.split('\n', 40);
  if (/^Incident Identifier:\s+[0-9A-Fa-f-]{8,}/.test(lines[0] ?? '')) return true;
  const hasProcess = lines.some((l) => /^Process:\s+\S.*\[\d+\]\s*$/.test(l));
  const hasCompanion = lines.some((l) => /^(Path|Identifier|Exception Type|Code Type):\s/.test(l));
  return hasProcess && hasCompanion;
}

/**
 * Parse a whole crash report, its strings redacted. Throws WISP_EMPTY_INPUT for blank text
 * and WISP_NOT_JSON when an .ips crash body does not parse (e.g. the file was cut off).
 * Legacy text never throws: what is missing is said in `notes`.
 */
export function parseCrashReport(text: string): CrashReport {
  return redactReport(parseAsWritten(text));
}

function parseAsWritten(text: string): CrashReport {
  const normalized = stripPreamble(text.replace(/\r\n?/g, '\n'));
  if (normalized.trim().length === 0) {
    throw new WispError('WISP_EMPTY_INPUT', 'The crash report is empty.');
  }
  if (normalized.startsWith('-') && normalized.slice(0, 200).includes(TRANSLATED_MARKER)) {
    return parseTranslated(normalized);
  }
  if (normalized.startsWith('{')) return parseIps(normalized);
  return parseLegacyCrash(normalized, 'crash');
}

function parseIps(text: string): CrashReport {
  const newline = text.indexOf('\n');
  const firstLine = newline < 0 ? text : text.slice(0, newline);
  const body = newline < 0 ? '' : text.slice(newline + 1);
  const header = readIpsHeader(firstLine);
  if (!header) return parseHeaderlessBody(text);

  if (!isSingleProcessCrash(header.bugType)) return parseIpsOther(header, body);
  // Dispatch on the body as well as on bug_type: a 309 header over a text body is what
  // Apple's own converters write ("crash with JSON header").
  if (body.trimStart().startsWith('{')) return parseIpsJsonCrash(header, body);
  if (body.trim().length === 0) {
    throw new WispError(
      'WISP_NOT_JSON',
      `.ips crash report (bug_type ${header.bugType}): only the header line is there, the report body is missing; the file looks truncated.`,
      { hint: 'Pass the whole .ips file as written by the system.' },
    );
  }
  return withHeader(parseLegacyCrash(body, 'ips'), header);
}

/** Some tools save the JSON body alone, pretty-printed, with no header line. */
function parseHeaderlessBody(text: string): CrashReport {
  let bugType: string | undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (isObject(v) && (typeof v.bug_type === 'string' || typeof v.bug_type === 'number')) bugType = String(v.bug_type);
  } catch {
    // Parsed again below with the precise error, or refused for a bad header.
  }
  if (bugType === undefined && !/^\{\s*$/.test(text.split('\n', 1)[0] ?? '')) {
    throw new WispError(
      'WISP_NOT_JSON',
      'The first line is not an .ips JSON header (a JSON object with "bug_type").',
      { hint: 'An .ips file starts with a one-line JSON header followed by the JSON body.' },
    );
  }
  const header: IpsHeader = { bugType: bugType ?? '309', fields: {} };
  const report = isSingleProcessCrash(header.bugType) ? parseIpsJsonCrash(header, text) : parseIpsOther(header, text);
  report.notes.push('no .ips header line: the JSON body was read on its own');
  return report;
}

/**
 * Console's "Translated Report (Full Report Below)": prefer the full .ips at the end; it
 * is exact. When it is cut off (pasted reports often are), the translated text still has
 * the exception and the crashed thread.
 */
function parseTranslated(text: string): CrashReport {
  const marker = FULL_REPORT_MARKER.exec(text);
  if (marker) {
    const full = text.slice(marker.index + marker[0].length).trimStart();
    try {
      const report = parseIps(full);
      report.notes.push('read from the Full Report part of a Console "Translated Report"');
      return report;
    } catch (err) {
      if (!(err instanceof WispError)) throw err;
      const report = parseLegacyCrash(text.slice(0, marker.index), 'crash');
      report.notes.push(`the Full Report part does not parse (${err.message}); read the translated text instead`);
      return report;
    }
  }
  return parseLegacyCrash(text, 'crash');
}

/** A text body under a JSON header: the body's values win, the header fills the gaps. */
function withHeader(report: CrashReport, header: IpsHeader): CrashReport {
  const fromHeader = reportFromHeader('ips', header);
  report.bugType = header.bugType;
  assign(report, 'bugTypeMeaning', fromHeader.bugTypeMeaning);
  assign(report, 'process', fromHeader.process);
  assign(report, 'bundleId', fromHeader.bundleId);
  assign(report, 'version', fromHeader.version);
  assign(report, 'os', fromHeader.os);
  assign(report, 'timestamp', fromHeader.timestamp);
  assign(report, 'incident', fromHeader.incident);
  if (header.bugType !== '109') report.notes.push(`bug_type ${header.bugType} header over a legacy text body; read as text`);
  return report;
}

/** A byte-order mark and blank lines come before some reports (Apple's converter adds one). */
function stripPreamble(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/^\s*\n/, '');
}

function looksLikeIpsHeader(header: IpsHeader): boolean {
  const h = header.fields;
  if ('level' in h || 'msg' in h) return false;
  if (!/^\d{1,4}$/.test(header.bugType)) return false;
  return ['os_version', 'incident_id', 'timestamp', 'app_name', 'name'].some((k) => typeof h[k] === 'string');
}

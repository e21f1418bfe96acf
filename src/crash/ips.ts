/**
 * macOS 12+ / iOS 15+ `.ips` files: line 1 is a JSON header, the rest one JSON body. This
 * module reads the header and turns a bug_type 309 body into a CrashReport; index.ts
 * decides which body parser applies.
 */

import { bugTypeMeaning } from './bug-types.js';
import { readFrames, readUsedImages, type UsedImage } from './frames.js';
import { arrayOf, intOf, isObject, parseIpsBody, str, type JsonObject } from './json-body.js';
import { explainTerminationCode, formatTerminationCode } from './termination.js';
import { TOP_FRAMES, type CrashException, type CrashReport, type CrashTermination, type CrashThread } from './types.js';
import { assign, capList, clipWithCount, joinVersion, MAX_ASI_MESSAGES, MAX_REASONS } from './util.js';

export interface IpsHeader {
  bugType: string;
  fields: JsonObject;
}

/** The header line as an object with a bug_type, or undefined when it is not one. */
export function readIpsHeader(line: string): IpsHeader | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const bugType = value.bug_type;
  if (typeof bugType === 'string' && bugType.length > 0) return { bugType, fields: value };
  if (typeof bugType === 'number') return { bugType: String(bugType), fields: value };
  return undefined;
}

/** Fields every .ips header offers, whatever its body: used for all three kinds. */
export function reportFromHeader(kind: CrashReport['kind'], header: IpsHeader): CrashReport {
  const h = header.fields;
  const report: CrashReport = {
    kind,
    bugType: header.bugType,
    bugTypeMeaning: bugTypeMeaning(header.bugType),
    notes: [],
  };
  assign(report, 'process', str(h.app_name) ?? str(h.name));
  assign(report, 'bundleId', str(h.bundleID));
  assign(report, 'version', joinVersion(str(h.app_version), str(h.build_version)));
  assign(report, 'os', str(h.os_version));
  assign(report, 'timestamp', str(h.timestamp));
  assign(report, 'incident', str(h.incident_id));
  return report;
}

/** A bug_type 309 report: header plus JSON body. Throws WISP_NOT_JSON if the body is broken. */
export function parseIpsJsonCrash(header: IpsHeader, bodyText: string): CrashReport {
  const { value: body, repaired } = parseIpsBody(bodyText, `.ips crash report (bug_type ${header.bugType})`);
  const report = reportFromHeader('ips', header);
  if (repaired) report.notes.push('the JSON body held raw control characters inside strings; they were escaped to read it');
  if (!Array.isArray(body.threads) && body.procName === undefined && body.exception === undefined) {
    // Valid JSON of some other shape: say so rather than fail, the header is still worth showing.
    report.notes.push('the JSON body has none of procName, exception, threads: not the usual crash layout');
  }
  readProcess(report, body);
  const exception = readException(body.exception);
  if (exception) report.exception = exception;
  const termination = readTermination(body.termination);
  if (termination) {
    report.termination = termination;
    const explained = explainTerminationCode(termination.code);
    if (explained) report.notes.push(explained);
  }
  const asi = readAsi(body.asi);
  if (asi.length > 0) report.asi = asi;

  const images = readUsedImages(body.usedImages);
  const missing = new Set<number>();
  const onMissingImage = (i: number): void => void missing.add(i);

  const thread = readFaultingThread(body, images, onMissingImage, report.notes);
  if (thread) report.faultingThread = thread;

  const lastException = arrayOf(body.lastExceptionBacktrace);
  if (lastException.length > 0) {
    report.lastExceptionBacktrace = readFrames(lastException, images, TOP_FRAMES, onMissingImage);
    report.lastExceptionBacktraceTotal = lastException.length;
  }
  if (missing.size > 0) {
    report.notes.push(`frames name image indexes missing from usedImages (${[...missing].join(', ')}); shown as ???`);
  }
  return report;
}

function readProcess(report: CrashReport, body: JsonObject): void {
  assign(report, 'process', str(body.procName), true);
  assign(report, 'path', str(body.procPath));
  assign(report, 'pid', intOf(body.pid));
  const bundle: JsonObject = isObject(body.bundleInfo) ? body.bundleInfo : {};
  assign(report, 'bundleId', str(bundle.CFBundleIdentifier), true);
  assign(report, 'version', joinVersion(str(bundle.CFBundleShortVersionString), str(bundle.CFBundleVersion)), true);
  const os: JsonObject = isObject(body.osVersion) ? body.osVersion : {};
  const train = str(os.train);
  const build = str(os.build);
  if (train !== undefined) assign(report, 'os', build !== undefined ? `${train} (${build})` : train);
  assign(report, 'timestamp', str(body.captureTime));
  assign(report, 'incident', str(body.incident));
}

function readException(v: unknown): CrashException | undefined {
  if (!isObject(v)) return undefined;
  const e: CrashException = {};
  assign(e, 'type', str(v.type));
  assign(e, 'signal', str(v.signal));
  assign(e, 'codes', str(v.codes));
  assign(e, 'subtype', str(v.subtype));
  assign(e, 'message', clipWithCount(str(v.message)));
  return Object.keys(e).length > 0 ? e : undefined;
}

function readTermination(v: unknown): CrashTermination | undefined {
  if (!isObject(v)) return undefined;
  const t: CrashTermination = {};
  assign(t, 'namespace', str(v.namespace));
  assign(t, 'code', formatTerminationCode(v.code));
  assign(t, 'indicator', str(v.indicator));
  // TCC and some other namespaces say `details`, RunningBoard/FrontBoard say `reasons`.
  const texts = [...arrayOf(v.reasons), ...arrayOf(v.details)].filter((x): x is string => typeof x === 'string');
  if (texts.length > 0) t.reasons = capList(texts, MAX_REASONS);
  assign(t, 'byProc', str(v.byProc));
  return Object.keys(t).length > 0 ? t : undefined;
}

/** `asi` maps an image name to its messages; each becomes "image: message". */
function readAsi(v: unknown): string[] {
  if (!isObject(v)) return [];
  const out: string[] = [];
  for (const [image, messages] of Object.entries(v)) {
    const list = Array.isArray(messages) ? messages : [messages];
    for (const m of list) {
      if (typeof m === 'string' && m.trim().length > 0) out.push(`${image}: ${m.trim()}`);
    }
  }
  return capList(out, MAX_ASI_MESSAGES);
}

/**
 * faultingThread is an index into threads[]. When it is absent or out of range the thread
 * marked `triggered` is the next best witness; the note says which was used.
 */
function readFaultingThread(
  body: JsonObject,
  images: UsedImage[],
  onMissingImage: (i: number) => void,
  notes: string[],
): CrashThread | undefined {
  const threads = arrayOf(body.threads);
  if (threads.length === 0) {
    notes.push('the report lists no threads');
    return undefined;
  }
  const declared = intOf(body.faultingThread);
  let index = declared;
  if (index === undefined || index < 0 || index >= threads.length) {
    const triggered = threads.findIndex((t) => isObject(t) && t.triggered === true);
    const said = declared === undefined ? 'no faultingThread' : `faultingThread ${declared} is out of range`;
    if (triggered < 0) {
      notes.push(`${said} and no thread is marked triggered; no crashed thread shown`);
      return undefined;
    }
    notes.push(`${said}; showing thread ${triggered}, the one marked triggered`);
    index = triggered;
  }
  const raw = threads[index];
  const t: JsonObject = isObject(raw) ? raw : {};
  const frames = arrayOf(t.frames);
  const thread: CrashThread = {
    index,
    frames: readFrames(frames, images, TOP_FRAMES, onMissingImage),
    framesTotal: frames.length,
  };
  assign(thread, 'name', str(t.name));
  const legacyInfo: JsonObject = isObject(body.legacyInfo) ? body.legacyInfo : {};
  const triggeredInfo: JsonObject = isObject(legacyInfo.threadTriggered) ? legacyInfo.threadTriggered : {};
  assign(thread, 'queue', str(t.queue) ?? str(triggeredInfo.queue));
  return thread;
}

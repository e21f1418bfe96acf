/**
 * Legacy text crash reports (`.crash`, the body of a bug_type 109 `.ips`, Console's
 * "Translated Report"): a `Key: value` header block, exception and termination lines, an
 * Application Specific Information block, then one block of frame lines per thread, then
 * Binary Images. The layout drifted over the years (column widths, `Crashed Thread:` vs
 * `Triggered by Thread:`, `Thread 0 Crashed::  Dispatch queue: ...`), so lines are
 * recognised by their start, never by column.
 */

import { hex } from './frames.js';
import { explainTerminationCode, formatTerminationCode } from './termination.js';
import { TOP_FRAMES, type CrashException, type CrashFrame, type CrashReport, type CrashTermination, type CrashThread } from './types.js';
import { assign, capList, clipWithCount, MAX_ASI_MESSAGES, MAX_REASONS } from './util.js';

// `21  icdab_nsdata   0x000000010061e4b4 main + 25780 (main.m:14)`. The image name is
// matched lazily up to the address, so names with spaces ("Google Chrome Framework") work;
// the null frame of a jump through 0 prints its address without 0x (`000000000000000000`).
const FRAME_LINE = /^(\d+)\s+(.+?)\s+(0x[0-9a-fA-F]+|[0-9a-fA-F]{8,})\s+(.+)$/;
const SOURCE_SUFFIX = /^(.*?)\s+\(([^()]+:\d+(?::\d+)?)\)$/;
const THREAD_HEADER = /^Thread (\d+)( Crashed)?:{1,2}\s*(.*)$/;
const THREAD_NAME = /^Thread (\d+) name:\s*(.*)$/;
const THREAD_STATE = /^Thread \d+ crashed with /;
// `Key:   value`. Keys are short words; a detail sentence with a colon far in does not match.
const KEY_VALUE = /^([A-Z][A-Za-z0-9 /()_.-]{0,40}?):(?:\s+(.*))?$/;
const LOOKS_LIKE_KEY = /^[A-Z][A-Za-z ]{1,30}:(?:\s|$)/;
const DISPATCH_QUEUE = /Dispatch queue:\s*(.+)$/;

interface ThreadBlock {
  crashed: boolean;
  name?: string;
  queue?: string;
  frames: CrashFrame[];
  framesTotal: number;
}

interface Scan {
  /** Every occurrence of each header key, in order (`Exception Codes:` can repeat). */
  fields: Map<string, string[]>;
  threads: Map<number, ThreadBlock>;
  threadNames: Map<number, { name?: string; queue?: string }>;
  asi: string[];
  lastException?: { frames: CrashFrame[]; total: number };
  terminationDetails: string[];
}

/** Parse a legacy text report. Never throws: what it cannot find it leaves out and notes. */
export function parseLegacyCrash(text: string, kind: CrashReport['kind']): CrashReport {
  const scan = scanLines(text.split('\n'));
  const report: CrashReport = { kind, notes: [] };
  const field = (key: string): string | undefined => {
    const v = scan.fields.get(key)?.[0]?.trim();
    return v === undefined || v.length === 0 || v === '???' ? undefined : v;
  };

  const proc = field('Process');
  if (proc !== undefined) {
    const m = /^(.*?)\s*\[(\d+)\]$/.exec(proc);
    report.process = m?.[1] ?? proc;
    if (m?.[2] !== undefined) report.pid = Number(m[2]);
  }
  assign(report, 'path', field('Path'));
  assign(report, 'bundleId', field('Identifier'));
  assign(report, 'version', field('Version'));
  assign(report, 'os', field('OS Version'));
  assign(report, 'timestamp', field('Date/Time') ?? field('Date'));
  assign(report, 'incident', field('Incident Identifier'));

  const exception = readException(scan.fields, report.notes);
  if (exception) report.exception = exception;
  const termination = readTermination(scan, field);
  if (termination) {
    report.termination = termination;
    const explained = explainTerminationCode(termination.code);
    if (explained) report.notes.push(explained);
  }
  if (scan.asi.length > 0) report.asi = capList(scan.asi, MAX_ASI_MESSAGES);

  const thread = pickCrashedThread(scan, field('Crashed Thread') ?? field('Triggered by Thread'), report.notes);
  if (thread) report.faultingThread = thread;
  if (scan.lastException) {
    report.lastExceptionBacktrace = scan.lastException.frames;
    report.lastExceptionBacktraceTotal = scan.lastException.total;
  }
  if (!report.exception && !report.faultingThread) {
    report.notes.push('no Exception Type and no crashed thread found: this text may not be a crash report');
  }
  return report;
}

function scanLines(lines: string[]): Scan {
  const scan: Scan = {
    fields: new Map(),
    threads: new Map(),
    threadNames: new Map(),
    asi: [],
    terminationDetails: [],
  };
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] ?? '').trimEnd();
    i++;
    // Everything after this is the image list and register dumps: nothing the summary uses.
    if (line.startsWith('Binary Images:')) break;

    let m = THREAD_NAME.exec(line);
    if (m) {
      scan.threadNames.set(Number(m[1]), nameAndQueue(m[2] ?? ''));
      continue;
    }
    m = THREAD_HEADER.exec(line);
    if (m) {
      const { frames, total, next } = readFrameBlock(lines, i);
      const block: ThreadBlock = { crashed: m[2] !== undefined, frames, framesTotal: total };
      const { name, queue } = nameAndQueue(m[3] ?? '');
      assign(block, 'name', name);
      assign(block, 'queue', queue);
      scan.threads.set(Number(m[1]), block);
      i = next;
      continue;
    }
    if (THREAD_STATE.test(line)) {
      i = skipBlock(lines, i);
      continue;
    }
    if (line.startsWith('Last Exception Backtrace:')) {
      const { frames, total, next } = readFrameBlock(lines, i);
      if (total > 0) {
        scan.lastException = { frames, total };
        i = next;
      } else {
        // Older iOS prints the backtrace as one parenthesised list of bare addresses.
        const addresses = /^\((0x[0-9a-fA-F]+(?:\s+0x[0-9a-fA-F]+)*)\)$/.exec((lines[i] ?? '').trim());
        if (addresses?.[1] !== undefined) {
          const all = addresses[1].split(/\s+/);
          scan.lastException = {
            frames: all.slice(0, TOP_FRAMES).map((a, index) => ({ index, image: '???', address: hex(BigInt(a)), symbol: '???' })),
            total: all.length,
          };
          i++;
        }
      }
      continue;
    }
    if (line.startsWith('Application Specific Information:')) {
      const sameLine = line.slice('Application Specific Information:'.length).trim();
      if (sameLine.length > 0) scan.asi.push(sameLine);
      while (i < lines.length && (lines[i] ?? '').trim().length > 0) {
        scan.asi.push((lines[i] ?? '').trim());
        i++;
      }
      continue;
    }
    const kv = KEY_VALUE.exec(line);
    if (kv?.[1] !== undefined) {
      const key = kv[1];
      const list = scan.fields.get(key) ?? [];
      list.push(kv[2] ?? '');
      scan.fields.set(key, list);
      if (key === 'Termination Reason') {
        // TCC and others explain the kill on the lines that follow, up to a blank line.
        while (i < lines.length) {
          const next = (lines[i] ?? '').trim();
          if (next.length === 0 || LOOKS_LIKE_KEY.test(next) || THREAD_HEADER.test(next)) break;
          scan.terminationDetails.push(next);
          i++;
        }
      }
    }
  }
  return scan;
}

/** Frame lines from `start` on, up to the first line that is not one. */
function readFrameBlock(lines: string[], start: number): { frames: CrashFrame[]; total: number; next: number } {
  const frames: CrashFrame[] = [];
  let i = start;
  let total = 0;
  while (i < lines.length) {
    const frame = parseFrameLine((lines[i] ?? '').trim(), total);
    if (!frame) break;
    if (frames.length < TOP_FRAMES) frames.push(frame);
    total++;
    i++;
  }
  return { frames, total, next: i };
}

export function parseFrameLine(line: string, index: number): CrashFrame | undefined {
  const m = FRAME_LINE.exec(line);
  if (!m || m[2] === undefined || m[3] === undefined || m[4] === undefined) return undefined;
  const rawAddress = m[3].startsWith('0x') ? m[3] : `0x${m[3]}`;
  const frame: CrashFrame = { index, image: m[2].trim(), address: hex(BigInt(rawAddress)), symbol: m[4].trim() };
  const withSource = SOURCE_SUFFIX.exec(frame.symbol);
  if (withSource?.[1] !== undefined && withSource[2] !== undefined) {
    frame.symbol = withSource[1];
    frame.source = withSource[2];
  }
  return frame;
}

function skipBlock(lines: string[], start: number): number {
  let i = start;
  while (i < lines.length && (lines[i] ?? '').trim().length > 0) i++;
  return i;
}

/** "tid_303  Dispatch queue: com.apple.main-thread" -> name tid_303, queue com.apple.main-thread. */
function nameAndQueue(text: string): { name?: string; queue?: string } {
  const out: { name?: string; queue?: string } = {};
  const q = DISPATCH_QUEUE.exec(text);
  const name = (q ? text.slice(0, q.index) : text).trim();
  if (name.length > 0) out.name = name;
  if (q?.[1] !== undefined) out.queue = q[1].trim();
  return out;
}

function readException(fields: Map<string, string[]>, notes: string[]): CrashException | undefined {
  const e: CrashException = {};
  const type = fields.get('Exception Type')?.[0]?.trim();
  if (type) {
    // "EXC_CRASH (SIGABRT)"
    const m = /^(\S+)(?:\s+\(([^)]+)\))?/.exec(type);
    assign(e, 'type', m?.[1] ?? type);
    assign(e, 'signal', m?.[2]);
  }
  // Apple's own .ips-to-text conversion writes the subtype ("KERN_INVALID_ADDRESS at 0x1")
  // as an extra `Exception Codes:` line; treat it as the subtype it is.
  const codes: string[] = [];
  for (const value of fields.get('Exception Codes') ?? []) {
    const v = value.trim();
    if (v.length === 0) continue;
    if (/^KERN_/.test(v) && e.subtype === undefined) e.subtype = v;
    else codes.push(v);
  }
  if (codes.length > 0) e.codes = codes.join('; ');
  const subtype = fields.get('Exception Subtype')?.[0]?.trim();
  if (subtype) e.subtype = subtype;
  const message = fields.get('Exception Reason')?.[0] ?? fields.get('Exception Message')?.[0];
  assign(e, 'message', clipWithCount(message?.trim() || undefined));
  const note = fields.get('Exception Note')?.[0]?.trim();
  // EXC_CORPSE_NOTIFY is on nearly every report and says nothing; anything else might.
  if (note && note.replace(/EXC_CORPSE_NOTIFY/g, '').trim().length > 0) notes.push(`exception note: ${note}`);
  return Object.keys(e).length > 0 ? e : undefined;
}

/**
 * The reason line comes in three spellings:
 *   Namespace SPRINGBOARD, Code 0x8badf00d
 *   Namespace SIGNAL, Code 4 Illegal instruction: 4
 *   SIGNAL 5 Trace/BPT trap: 5
 */
function readTermination(scan: Scan, field: (key: string) => string | undefined): CrashTermination | undefined {
  const t: CrashTermination = {};
  const reason = field('Termination Reason');
  const reasons: string[] = [];
  if (reason !== undefined) {
    const m =
      /^Namespace\s+([^,\s]+),\s*Code\s+(0x[0-9a-fA-F]+|\d+)\s*(.*)$/.exec(reason) ??
      /^([A-Z][A-Z_]+)\s+(0x[0-9a-fA-F]+|\d+)\s*(.*)$/.exec(reason);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      t.namespace = m[1];
      t.code = formatTerminationCode(BigInt(m[2]).toString());
      const rest = (m[3] ?? '').trim();
      if (rest.length > 0) t.indicator = rest;
    } else {
      reasons.push(reason);
    }
  }
  reasons.push(...scan.terminationDetails);
  const description = field('Termination Description');
  if (description !== undefined) reasons.push(description);
  if (reasons.length > 0) t.reasons = capList(reasons, MAX_REASONS);
  assign(t, 'indicator', field('Termination Signal'));
  const by = field('Terminating Process');
  if (by !== undefined) t.byProc = by.replace(/\s*\[\d+\]$/, '');
  return Object.keys(t).length > 0 ? t : undefined;
}

/**
 * The header names the crashed thread (`Crashed Thread: 2  Dispatch queue: ...` or
 * `Triggered by Thread:  7`); the block marked "Crashed" is the fallback.
 */
function pickCrashedThread(scan: Scan, declared: string | undefined, notes: string[]): CrashThread | undefined {
  const leadingNumber = declared === undefined ? undefined : /^\d+/.exec(declared)?.[0];
  let index = leadingNumber === undefined ? undefined : Number(leadingNumber);
  if (index === undefined || !scan.threads.has(index)) {
    const marked = [...scan.threads.entries()].find(([, b]) => b.crashed)?.[0];
    if (index !== undefined && marked !== undefined) notes.push(`crashed thread ${index} has no frame block; showing thread ${marked}, marked Crashed`);
    if (index !== undefined && marked === undefined) notes.push(`crashed thread ${index} has no frame block`);
    index = marked;
  }
  if (index === undefined) return undefined;
  const block = scan.threads.get(index);
  if (!block) return undefined;
  const thread: CrashThread = { index, frames: block.frames, framesTotal: block.framesTotal };
  const named = scan.threadNames.get(index);
  assign(thread, 'name', named?.name ?? block.name);
  assign(thread, 'queue', named?.queue ?? block.queue ?? (declared !== undefined ? DISPATCH_QUEUE.exec(declared)?.[1]?.trim() : undefined));
  return thread;
}

import type { InputRead } from '../log/model/result.js';
import { SEVERITIES } from '../log/model/severity.js';
import { formatBytes, namedFew, skippedNotes } from '../log/render/log-text.js';
import { clip, formatCount, plural } from '../core/text.js';
import type { ComparisonResult, CompareResult, CrashComparison, NewEntry, RateEntry, SideGroup, SideRead } from './result.js';

const n = formatCount;
const LINE_CHARS = 300;
const CONTINUATION_CHARS = 240;
/** A gone group shows this many of its continuation lines: what it was is enough. */
const GONE_MORE_LINES = 2;
const cell = (s: string, max: number): string => clip(s.replace(/\t/g, ' '), max);

export function renderCompareText(r: CompareResult, budget: number): string {
  return r.kind === 'crash-comparison' ? renderCrashComparison(r) : renderComparisonText(r, budget);
}

/**
 * What changed since the baseline, in the order an agent asks: the boundary and the
 * section counts first (so the first lines say how much is new, changed, gone and shared,
 * and by which rules), then what is new, what changed rate, what is gone, each within the
 * byte budget, which says when it cuts.
 */
export function renderComparisonText(r: ComparisonResult, budget: number): string {
  const head: string[] = [];
  head.push(`compared with a baseline: ${r.rules.matching}`);
  head.push(`this run: ${sideLine(r.now)}`);
  head.push(`baseline: ${sideLine(r.baseline)}`);
  for (const note of [...notesOf(r.now, 'this run'), ...notesOf(r.baseline, 'baseline'), ...r.notes]) head.push(`note: ${note}`);
  head.push(newSummary(r));
  head.push(`rate changed: ${r.rateChanged.groups === 0 ? 'none' : `${groups(r.rateChanged.groups)}, ${lines(r.rateChanged.lines)}`} (rule: ${r.rules.rate.text})`);
  head.push(`gone since the baseline: ${r.gone.groups === 0 ? 'nothing' : `${groups(r.gone.groups)}, ${lines(r.gone.lines)} of the baseline`}`);
  head.push(`shared with the baseline: ${groups(r.shared.groups)}, ${lines(r.shared.lines)} (baseline ${lines(r.shared.baselineLines)}), left out`);

  // How a `was` line was decided, said once at the end where one is shown.
  const kinds = new Set(r.new.shown.map((e) => e.change));
  const rules: string[] = [];
  if (kinds.has('words')) rules.push(`"words changed": ${r.rules.words.text}`);
  if (kinds.has('values')) rules.push(`"values changed": ${r.rules.values}`);
  const tail = rules.length === 0 ? '' : `\nrules: ${rules.join('; ')}\n`;

  let out = `${head.join('\n')}\n`;
  const room = budget - tail.length;
  const sections: { title: string; blocks: string[]; total: number; what: string }[] = [
    { title: '\n== new in this run\n', blocks: r.new.shown.map(newBlock), total: r.new.groups, what: 'new groups' },
    { title: '\n== rate changed\n', blocks: r.rateChanged.shown.map(rateBlock), total: r.rateChanged.groups, what: 'groups whose rate changed' },
    { title: '\n== gone since the baseline\n', blocks: r.gone.shown.map(goneBlock), total: r.gone.groups, what: 'gone groups' },
  ];
  let full = false;
  for (const s of sections) {
    if (s.total === 0) continue;
    let shown = 0;
    if (!full && out.length + s.title.length <= room) {
      out += s.title;
      for (const block of s.blocks) {
        if (out.length + block.length > room) break;
        out += block;
        shown++;
      }
    }
    if (shown < s.total) {
      const cut = shown < s.blocks.length;
      if (cut) full = true;
      out += `(${n(s.total - shown)} more ${s.what} left out ${cut ? `to stay within ${n(budget)} bytes: ask for JSON or a smaller top` : 'past top'})\n`;
    }
  }
  return out + tail;
}

const groups = (k: number): string => plural(k, 'group');
const lines = (k: number): string => plural(k, 'line');

function sideLine(s: SideRead): string {
  const names = namedFew(s.read.inputs.filter((i: InputRead) => i.skipped !== true).map((i: InputRead) => i.name)) || 'nothing';
  return `read ${formatBytes(s.read.bytes)}, ${lines(s.read.lines)} from ${names} (format: ${s.format}); ${groups(s.totals.groups)} in ${plural(s.totals.records, 'record')}`;
}

function notesOf(s: SideRead, who: string): string[] {
  const notes: string[] = [];
  if (s.read.skippedHeadBytes > 0) notes.push(`${who}: the first ${formatBytes(s.read.skippedHeadBytes)} were skipped to keep the last part`);
  if (s.read.cutLines > 0) notes.push(`${who}: ${n(s.read.cutLines)} lines of 64 KB or more were cut to 64 KB`);
  for (const note of skippedNotes(s.read.skippedInputs)) notes.push(`${who}: ${note}`);
  for (const note of s.read.notes) notes.push(`${who}: ${note}`);
  return notes;
}

function newSummary(r: ComparisonResult): string {
  if (r.new.groups === 0) return 'new in this run: nothing (every group of this run is in the baseline)';
  const sev = SEVERITIES.filter((s) => (r.new.bySeverity[s] ?? 0) > 0).map((s) => `${s} ${n(r.new.bySeverity[s]!)}`);
  return `new in this run: ${groups(r.new.groups)}, ${lines(r.new.lines)} (${sev.join(', ')}); showing ${r.new.shown.length}, ranked by severity, then count`;
}

function where(g: SideGroup, prefix = ''): string {
  const lines = g.firstLine === g.lastLine ? `${prefix}line ${n(g.firstLine)}` : `${prefix}lines ${n(g.firstLine)}-${n(g.lastLine)}`;
  let time = '';
  if (g.firstTime !== null) time = g.firstTime === g.lastTime ? `  at ${g.firstTime}` : `  ${g.firstTime} .. ${g.lastTime ?? ''}`;
  return `${lines}${time}`;
}

/** `ERROR x3 (5 lines)`: a group's severity and size, as the log's text shows them. */
function sizeOf(g: SideGroup): string {
  return `${g.severity.toUpperCase()} x${n(g.records)}${g.lines > g.records ? ` (${n(g.lines)} lines)` : ''}`;
}

/** The template where it says more than the example (several records or variants), then the examples. */
function body(g: SideGroup, moreLines: number): string {
  let s = '';
  if (g.records > 1 || g.variants > 1) s += `  ${cell(g.template, LINE_CHARS)}\n`;
  g.examples.forEach((e, i) => {
    s += `  e.g. ${cell(e.example, LINE_CHARS)}\n`;
    // Continuation lines for the first variant only: the others show what varies.
    if (i > 0) return;
    const more = e.exampleMore.slice(0, moreLines);
    for (const line of more) s += `     | ${cell(line, CONTINUATION_CHARS)}\n`;
    const left = e.exampleMoreLines + e.exampleMore.length - more.length;
    if (left > 0) s += `     (${n(left)} more ${left === 1 ? 'line' : 'lines'})\n`;
  });
  if (g.variants > g.examples.length) s += `  (${n(g.variants - g.examples.length)} more variants)\n`;
  return s;
}

function newBlock(e: NewEntry): string {
  let s = `#${e.rank} ${sizeOf(e)}  ${where(e)}\n${body(e, Infinity)}`;
  if (e.was !== undefined) {
    const how = e.change === 'words' ? 'words changed' : 'values changed';
    s += `  was (${how}): ${sizeOf(e.was)}  ${cell(e.was.examples[0]?.example ?? e.was.template, LINE_CHARS)}\n`;
  }
  return s;
}

function rateBlock(e: RateEntry): string {
  const per = `${e.perThousandNow} per 1,000 records, was ${e.perThousandWas} (${e.direction} ${e.factor === Infinity ? 'from none' : `${e.factor}x`})`;
  return `#${e.rank} ${sizeOf(e.now)}, baseline x${n(e.was.records)}: ${per}  ${where(e.now)}\n${body(e.now, GONE_MORE_LINES)}`;
}

function goneBlock(g: SideGroup & { rank: number }): string {
  return `#${g.rank} ${sizeOf(g)}  ${where(g, 'baseline ')}\n${body(g, GONE_MORE_LINES)}`;
}

function renderCrashComparison(r: CrashComparison): string {
  const out: string[] = [];
  out.push(`compared this crash report with a baseline crash report: by exception and the faulting thread's frames (image and symbol; addresses differ by run)`);
  out.push(`this run: ${r.now.name} (format: ${r.now.format})`);
  out.push(`baseline: ${r.baseline.name} (format: ${r.baseline.format})`);
  out.push(r.sameException ? `exception: the same: ${r.now.exception}` : `exception: changed: now ${r.now.exception}; was ${r.baseline.exception}`);
  if (r.firstDifference < 0) out.push(`faulting thread: the same ${r.now.frames.length} top frames`);
  else {
    out.push(`faulting thread: differs from frame ${r.firstDifference}; ${r.newFrames.length} frames new, ${r.goneFrames.length} gone`);
    if (r.newFrames.length > 0) out.push('new frames (this run only):', ...r.newFrames.map((f) => `  ${f}`));
    if (r.goneFrames.length > 0) out.push('gone frames (baseline only):', ...r.goneFrames.map((f) => `  ${f}`));
    out.push('this run\'s faulting frames:', ...r.now.frames.map((f, i) => `  ${String(i).padEnd(3)} ${f}`));
  }
  return `${out.join('\n')}\n`;
}

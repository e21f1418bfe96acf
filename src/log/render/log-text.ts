import type { LogResult, ShownGroup } from '../model/result.js';
import { SEVERITIES } from '../model/severity.js';
import { renderCrashReport } from '../../crash/index.js';
import { afterTokens, headerTokenCount } from '../parse/header.js';
import { clip, plural, formatCount } from '../../core/text.js';

/** Of a template or an example, this much of the message is shown; the header before it is cut first. */
const MESSAGE_CHARS = 300;
const HEADER_CHARS = 60;
const CONTINUATION_CHARS = 240;
/** A small input is shown whole when its numbered lines fit one screen. */
const WHOLE_BYTES = 4 * 1024;

const n = formatCount;
/** Tabs as spaces: the layout is ours. */
const cell = (s: string, max: number): string => clip(s.replace(/\t/g, ' '), max);

/** The CLI's text budget, in bytes: about a screen and a half, read whole by an agent. */
export const TEXT_BYTES = 10_000;

/**
 * Inputs named in the text's first lines: a folder of thousands of logs would otherwise
 * fill the budget with their names and leave no room for a group. JSON names them all.
 */
const NAMED_INPUTS = 3;

/** The first NAMED_INPUTS names, and how many more there are. */
export function namedFew(names: string[]): string {
  if (names.length <= NAMED_INPUTS) return names.join(', ');
  return `${n(names.length)} inputs: ${names.slice(0, NAMED_INPUTS).join(', ')} and ${n(names.length - NAMED_INPUTS)} more (JSON names each)`;
}

/** The inputs that could not be read, the first NAMED_INPUTS by name and reason, then how many more. */
export function skippedNotes(skipped: { name: string; reason: string }[]): string[] {
  const notes = skipped.slice(0, NAMED_INPUTS).map((s) => `skipped ${s.name}: ${s.reason}`);
  if (skipped.length > NAMED_INPUTS) notes.push(`skipped ${plural(skipped.length - NAMED_INPUTS, 'more input')} (JSON names each, with its reason)`);
  return notes;
}

export function formatBytes(b: number): string {
  if (b < 1024) return `${b} B`;
  if (b < 1024 * 1024) return `${(b / 1024).toFixed(1)} KB`;
  return `${(b / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The text an agent reads: the boundary first (what was read, found, shown, left out),
 * then the groups, within a byte budget that is itself reported when it cuts.
 */
export function renderLogText(r: LogResult, budget: number): string {
  const head: string[] = [];
  // A skipped input is named in its note, not among what was read.
  const names = namedFew(r.read.inputs.filter((i) => i.skipped !== true).map((i) => i.name)) || 'nothing';
  head.push(`read ${formatBytes(r.read.bytes)}, ${plural(r.read.lines, 'line')} from ${names} (format: ${r.format})`);
  const crashes = r.read.crashes?.length ?? 0;
  if (crashes > 0) head.push(`${n(crashes)} of them ${crashes === 1 ? 'is a crash report, shown' : 'are crash reports, shown'} first as ${crashes === 1 ? 'a crash' : 'crashes'}`);
  const notes: string[] = [];
  if (r.read.skippedHeadBytes > 0) notes.push(`the first ${formatBytes(r.read.skippedHeadBytes)} were skipped to keep the last part; line numbers count from the first line kept`);
  if (r.read.cutLines > 0) notes.push(`${plural(r.read.cutLines, 'line')} of 64 KB or more ${r.read.cutLines === 1 ? 'was' : 'were'} cut to 64 KB`);
  if (r.read.frameLines > 0) notes.push(`${plural(r.read.frameLines, 'header/footer line')} ${r.read.frameLines === 1 ? 'is not a log line' : 'are not log lines'}`);
  notes.push(...skippedNotes(r.read.skippedInputs));
  notes.push(...r.read.notes);
  for (const note of notes) head.push(`note: ${note}`);
  const foundAt = head.length;
  const sev = SEVERITIES.filter((s) => r.linesBySeverity[s] > 0).map((s) => `${s} ${n(r.linesBySeverity[s])}`);
  if (sev.length > 0) head.push(`lines by severity: ${sev.join(', ')}`);
  if (r.omitted.groups > 0 || r.omitted.overflowLines > 0) {
    const parts = SEVERITIES.flatMap((s) => {
      const c = r.omitted.bySeverity[s];
      return c === undefined ? [] : [`${s} ${plural(c.groups, 'group')}/${plural(c.lines, 'line')}`];
    });
    head.push(`left out: ${plural(r.omitted.groups, 'group')}, ${plural(r.omitted.lines, 'line')} (${parts.join('; ')})`);
    if (r.omitted.overflowLines > 0) head.push(`note: ${plural(r.omitted.overflowLines, 'line')} had templates past the group cap and were counted, not grouped`);
  } else {
    head.push('left out: nothing');
  }

  // A crash is the cause if there is one: it comes before the log's groups.
  let body = '';
  for (const c of r.read.crashes ?? []) body += `\n== crash report ${c.name} (${c.format})\n${renderCrashReport(c.report)}`;
  const headWith = (found: string): string => `${[...head.slice(0, foundAt), found, ...head.slice(foundAt)].join('\n')}\n`;
  if (r.whole !== undefined) {
    const whole = renderWhole(r.whole);
    const out = `${headWith(foundLine(r, r.groups))}${body}`;
    if (whole.length <= WHOLE_BYTES && out.length + whole.length <= budget) return `${out}(the input is small: here it is whole, redacted)\n${whole}`;
  }
  const tail = r.read.tail ?? [];
  if (tail.length > 0) {
    const width = n(tail[tail.length - 1]!.line).length;
    // Where a routine run the input ends with is left out (rank/ending.ts), it is said there.
    const leftOut = r.read.tailLeftOut;
    let lines = '';
    for (const l of tail) {
      lines += `${n(l.line).padStart(width)}| ${cell(l.text, MESSAGE_CHARS)}\n`;
      if (l.line === leftOut?.afterLine) lines += `${' '.repeat(width)}  (${plural(leftOut.lines, 'more line')}, routine: groups that recur all along)\n`;
    }
    body += `${leftOut !== undefined ? 'last lines, the routine run they end with left out:' : 'last lines, as tail shows them:'}\n${lines}`;
  }
  // The header says how many groups are printed: as many as fit, the header's own length included.
  const blocks = r.groups.map((g, i) => {
    const before = r.groups[i - 1];
    // The errors the input ends with, and the one-off error before the recurring ones, are said once, before them; the ranked groups after them.
    if (g.late !== undefined && before?.late === undefined) return `\nthe errors the input ends with, begun after line ${n(g.late.after)} where the groups ranked first end:\n${renderGroup(g)}`;
    if (g.first !== undefined) {
      const above = g.first.errorsAfter === 1 ? 'the recurring error group ranked above it begins' : `${n(g.first.errorsAfter)} recurring error groups ranked above it begin`;
      const shared = g.first.shared.length > 0 ? `; it shares ${g.first.shared.slice(0, 3).map((w) => `'${cell(w, 30)}'`).join(', ')} with them` : '';
      return `\nthe one-off error before the recurring ones: ${above} after it, the first ${g.first.lead} after${shared}:\n${renderGroup(g)}`;
    }
    if (before !== undefined && (before.late !== undefined || before.first !== undefined) && g.late === undefined) return `\nthen the groups by rank:\n${renderGroup(g)}`;
    return renderGroup(g);
  });
  const compose = (k: number): string => {
    let out = headWith(foundLine(r, r.groups.slice(0, k), k < blocks.length ? budget : undefined)) + body + blocks.slice(0, k).join('');
    if (k < blocks.length) out += `\n(${n(blocks.length - k)} more of the ${n(blocks.length)} groups chosen left out to stay within ${n(budget)} bytes: ask for JSON or a smaller top)\n`;
    return out;
  };
  let k = 0;
  let size = headWith(foundLine(r, r.groups)).length + body.length;
  while (k < blocks.length && size + blocks[k]!.length <= budget) size += blocks[k++]!.length;
  let out = compose(k);
  while (k > 0 && out.length > budget) out = compose(--k);
  return out;
}

/** What the header says is shown: the groups printed, ranked ones apart from those shown for a reason. */
function foundLine(r: LogResult, printed: readonly ShownGroup[], cutAt?: number): string {
  const late = printed.filter((g) => g.late !== undefined).length;
  const first = printed.filter((g) => g.first !== undefined).length;
  const rare = printed.filter((g) => g.rare !== undefined).length;
  const extras: string[] = [];
  if (late > 0) extras.push(`the ${late === 1 ? 'error group' : `${late} error groups`} the input ends with first`);
  if (first > 0) extras.push(`the one-off error before the recurring ones ${late > 0 ? 'next' : 'first'}`);
  if (rare > 0) extras.push(`${rare} rare ${rare === 1 ? 'group' : 'groups'} for the bursts ${rare === 1 ? 'it precedes' : 'they precede'}`);
  const ranked = printed.length - late - rare;
  const also = extras.length === 0 ? '' : extras.length === 1 ? `, ${late > 0 || first > 0 ? '' : 'and '}${extras[0]}` : `, ${extras.slice(0, -1).join(', ')}, and ${extras[extras.length - 1]}`;
  const cut = cutAt === undefined ? '' : ` (of ${n(r.groups.length)} chosen: the rest do not fit ${n(cutAt)} bytes)`;
  return `found ${plural(r.totals.groups, 'group')} in ${plural(r.totals.records, 'record')}; showing ${n(ranked + late)}${cut}, ranked by severity, then count${also}`;
}

/** Numbered lines, as an editor shows them. */
function renderWhole(lines: string[]): string {
  const width = String(lines.length).length;
  let out = '';
  // A final newline ends the last line; it is not a line of its own.
  const count = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  for (let i = 0; i < count; i++) out += `${String(i + 1).padStart(width)}| ${lines[i]!.replace(/\t/g, '    ')}\n`;
  return out;
}

/** A line cut so that its message keeps MESSAGE_CHARS: what goes is the header's end. */
function headerThenMessage(text: string, messageAt: number): string {
  if (text.length <= MESSAGE_CHARS + HEADER_CHARS) return cell(text, MESSAGE_CHARS + HEADER_CHARS);
  const header = text.slice(0, messageAt);
  const room = Math.max(HEADER_CHARS, MESSAGE_CHARS + HEADER_CHARS - (text.length - messageAt));
  return `${header.length > room ? `${cell(header, room)} ` : header}${cell(text.slice(messageAt), MESSAGE_CHARS)}`;
}

function renderGroup(g: ShownGroup): string {
  const lines = g.firstLine === g.lastLine ? `line ${n(g.firstLine)}` : `lines ${n(g.firstLine)}-${n(g.lastLine)}`;
  const extra = g.lines > g.count ? ` (${n(g.lines)} lines)` : '';
  let time = '';
  if (g.firstTime !== null) time = g.firstTime === g.lastTime ? `  at ${g.firstTime}` : `  ${g.firstTime} .. ${g.lastTime ?? ''}`;
  let s = `\n#${g.rank} ${g.severity.toUpperCase()} x${n(g.count)}${extra}  ${lines}${time}\n`;
  if (g.rare !== undefined) {
    const shared = g.rare.shared.length > 0 ? `, shares ${g.rare.shared.slice(0, 3).map((w) => `'${cell(w, 30)}'`).join(', ')} with it` : '';
    s += `  rare (${plural(g.count, 'record')}), ${g.rare.lead} before the burst of #${g.rare.beforeRank} '${g.rare.burst}' (${plural(g.rare.burstRecords, 'record')}) begins${shared}\n`;
  }
  if (g.inputs !== undefined && g.inputCount !== undefined) {
    const list = g.inputs.map((i) => `${i.name} x${n(i.count)}`).join(', ');
    const more = g.inputCount > g.inputs.length ? `, ${n(g.inputCount - g.inputs.length)} more` : '';
    const first = g.firstAt !== undefined ? `; first at ${g.firstAt.name}:${n(g.firstAt.line)}` : '';
    s += `  in ${plural(g.inputCount, 'input')}: ${list}${more}${first}\n`;
  }
  const tokens = g.template.split(/[ \t]+/);
  const headerTokens = headerTokenCount(tokens);
  // A group of one record: its example is that record, and the template says nothing more.
  if (g.count > 1) s += `  ${headerThenMessage(g.template, afterTokens(g.template, 0, headerTokens))}\n`;
  if (g.values !== undefined) {
    const parts = g.values.map((v) => {
      const list = v.values.map((x) => `${cell(x.value, 40)} x${n(x.count)}`).join(', ');
      return `${v.placeholder}: ${list}${v.others > 0 ? `, ${n(v.others)} ${v.others === 1 ? 'other' : 'others'} x${n(v.otherRecords)}` : ''}`;
    });
    s += `  values: ${parts.join(' | ')}\n`;
  }
  if (g.precursor !== undefined) {
    const p = g.precursor;
    // The severity in the brackets: the template often begins with its own level word.
    s += `  preceded by: ${cell(p.template, 100)} (${p.severity}, ${n(p.count)} of ${n(p.of)}, ${p.sameTrace ? 'on the same trace' : 'the record just before'})\n`;
  }
  if (g.printedBefore !== undefined) s += `  printed just before: ${cell(g.printedBefore, CONTINUATION_CHARS)}\n`;
  const exampleMessage = g.exampleTemplateAt < 0 ? 0 : afterTokens(g.example, g.exampleTemplateAt, headerTokens);
  s += `  e.g. ${headerThenMessage(g.exampleTemplateAt < 0 ? withoutStackFrames(g.example) : g.example, exampleMessage)}\n`;
  for (const more of g.exampleMore) s += `     | ${cell(more, CONTINUATION_CHARS)}\n`;
  if (g.exampleMoreLines > 0) s += `     (${plural(g.exampleMoreLines, 'more line', 'more lines')})\n`;
  for (const other of g.also ?? []) s += `  also ${headerThenMessage(other, 0)}\n`;
  return s;
}

/**
 * A JSON record's example with each stack trace cut to its first line: the frames (the
 * program's own one is shown under the example) give way to the fields written after
 * them (pino's `"cartId":"c317"` after `err.stack`). Lines cut are counted in place.
 * `--json` keeps the example whole.
 */
function withoutStackFrames(example: string): string {
  if (example.charCodeAt(0) !== 123 /* { */ || !example.includes('"stack"')) return example;
  try {
    const record: unknown = JSON.parse(example);
    // Only where writing it again gives back the same text (no spaces, no number rounded).
    if (JSON.stringify(record) !== example) return example;
    return JSON.stringify(record, (key, value: unknown) => {
      if (key !== 'stack' || typeof value !== 'string') return value;
      const lines = value.split('\n');
      return lines.length === 1 ? value : `${lines[0]} (${plural(lines.length - 1, 'more line')})`;
    });
  } catch {
    return example;
  }
}

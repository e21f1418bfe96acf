import type { LogResult, ShownGroup } from '../model/result.js';
import { SEVERITIES } from '../model/severity.js';
import { renderCrashReport } from '../../crash/index.js';
import { afterTokens, headerTokenCount } from '../parse/header.js';
import { clip, formatCount } from '../../core/text.js';

/** Of a template or an example, this much of the message is shown; the header before it is cut first. */
const MESSAGE_CHARS = 300;
const HEADER_CHARS = 60;
const CONTINUATION_CHARS = 240;

const n = formatCount;
/** Tabs as spaces: the layout is ours. */
const cell = (s: string, max: number): string => clip(s.replace(/\t/g, ' '), max);

/** The CLI's text budget, in bytes: about a screen and a half, read whole by an agent. */
export const TEXT_BYTES = 10_000;

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
  const names = r.read.inputs.map((i) => i.name).join(', ');
  head.push(`read ${formatBytes(r.read.bytes)}, ${n(r.read.lines)} lines from ${names} (format: ${r.format})`);
  const crashes = r.read.crashes?.length ?? 0;
  if (crashes > 0) head.push(`${n(crashes)} of them ${crashes === 1 ? 'is a crash report, shown' : 'are crash reports, shown'} first as ${crashes === 1 ? 'a crash' : 'crashes'}`);
  const notes: string[] = [];
  if (r.read.skippedHeadBytes > 0) notes.push(`the first ${formatBytes(r.read.skippedHeadBytes)} were skipped to keep the last part; line numbers count from the first line kept`);
  if (r.read.cutLines > 0) notes.push(`${n(r.read.cutLines)} lines of 64 KB or more were cut to 64 KB`);
  if (r.read.frameLines > 0) notes.push(`${n(r.read.frameLines)} header/footer lines are not log lines`);
  for (const s of r.read.skippedInputs) notes.push(`skipped ${s.name}: ${s.reason}`);
  notes.push(...r.read.notes);
  for (const note of notes) head.push(`note: ${note}`);
  const rare = r.groups.filter((g) => g.rare !== undefined).length;
  head.push(
    `found ${n(r.totals.groups)} groups in ${n(r.totals.records)} records; showing ${r.groups.length - rare}, ranked by severity, then count${rare > 0 ? `, and ${rare} rare ${rare === 1 ? 'group' : 'groups'} for the bursts ${rare === 1 ? 'it precedes' : 'they precede'}` : ''}`,
  );
  const sev = SEVERITIES.filter((s) => r.linesBySeverity[s] > 0).map((s) => `${s} ${n(r.linesBySeverity[s])}`);
  if (sev.length > 0) head.push(`lines by severity: ${sev.join(', ')}`);
  if (r.omitted.groups > 0 || r.omitted.overflowLines > 0) {
    const parts = SEVERITIES.flatMap((s) => {
      const c = r.omitted.bySeverity[s];
      return c === undefined ? [] : [`${s} ${n(c.groups)} groups/${n(c.lines)} lines`];
    });
    head.push(`left out: ${n(r.omitted.groups)} ${r.omitted.groups === 1 ? 'group' : 'groups'}, ${n(r.omitted.lines)} lines (${parts.join('; ')})`);
    if (r.omitted.overflowLines > 0) head.push(`note: ${n(r.omitted.overflowLines)} lines had templates past the group cap and were counted, not grouped`);
  } else {
    head.push('left out: nothing');
  }

  let out = `${head.join('\n')}\n`;
  // A crash is the cause if there is one: it comes before the log's groups.
  for (const c of r.read.crashes ?? []) out += `\n== crash report ${c.name} (${c.format})\n${renderCrashReport(c.report)}`;
  if (r.whole !== undefined) {
    const whole = renderWhole(r.whole);
    if (out.length + whole.length <= budget) return `${out}(the input is small: here it is whole, redacted)\n${whole}`;
  }
  const tail = r.read.tail ?? [];
  if (tail.length > 0) {
    const width = n(tail[tail.length - 1]!.line).length;
    out += `last lines, as tail shows them:\n${tail.map((l) => `${n(l.line).padStart(width)}| ${cell(l.text, MESSAGE_CHARS)}\n`).join('')}`;
  }
  let shown = 0;
  for (const g of r.groups) {
    const block = renderGroup(g);
    if (out.length + block.length > budget) break;
    out += block;
    shown++;
  }
  if (shown < r.groups.length) {
    out += `\n(${r.groups.length - shown} more of the top ${r.groups.length} left out to stay within ${n(budget)} bytes: ask for JSON or a smaller top)\n`;
  }
  return out;
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
    s += `  rare (${n(g.count)} ${g.count === 1 ? 'record' : 'records'}), ${g.rare.lead} before the burst of #${g.rare.beforeRank} '${g.rare.burst}' (${n(g.rare.burstRecords)} records) begins${shared}\n`;
  }
  if (g.inputs !== undefined && g.inputCount !== undefined) {
    const list = g.inputs.map((i) => `${i.name} x${n(i.count)}`).join(', ');
    const more = g.inputCount > g.inputs.length ? `, ${n(g.inputCount - g.inputs.length)} more` : '';
    const first = g.firstAt !== undefined ? `; first at ${g.firstAt.name}:${n(g.firstAt.line)}` : '';
    s += `  in ${n(g.inputCount)} ${g.inputCount === 1 ? 'input' : 'inputs'}: ${list}${more}${first}\n`;
  }
  const tokens = g.template.split(/[ \t]+/);
  const headerTokens = headerTokenCount(tokens);
  s += `  ${headerThenMessage(g.template, afterTokens(g.template, 0, headerTokens))}\n`;
  if (g.values !== undefined) {
    const parts = g.values.map((v) => {
      const list = v.values.map((x) => `${cell(x.value, 40)} x${n(x.count)}`).join(', ');
      return `${v.placeholder}: ${list}${v.others > 0 ? `, ${n(v.others)} ${v.others === 1 ? 'other' : 'others'} x${n(v.otherRecords)}` : ''}`;
    });
    s += `  values: ${parts.join(' | ')}\n`;
  }
  if (g.precursor !== undefined) {
    const p = g.precursor;
    s += `  preceded by: ${p.severity.toUpperCase()} ${cell(p.template, 100)} (${n(p.count)} of ${n(p.of)}, ${p.sameTrace ? 'on the same trace' : 'the record just before'})\n`;
  }
  const exampleMessage = g.exampleTemplateAt < 0 ? 0 : afterTokens(g.example, g.exampleTemplateAt, headerTokens);
  s += `  e.g. ${headerThenMessage(g.example, exampleMessage)}\n`;
  for (const more of g.exampleMore) s += `     | ${cell(more, CONTINUATION_CHARS)}\n`;
  if (g.exampleMoreLines > 0) s += `     (${n(g.exampleMoreLines)} more ${g.exampleMoreLines === 1 ? 'line' : 'lines'})\n`;
  for (const other of g.also ?? []) s += `  also ${headerThenMessage(other, 0)}\n`;
  return s;
}

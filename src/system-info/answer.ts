/**
 * A system_info answer: a few facts, a short table and what could not be seen, within
 * 15 rows and 4 KiB. Every shown string passes through the redaction module here, once,
 * so no topic can forget it: each value whole, and only then cut to its column's width,
 * since a secret cut first (`ghp_16C7e42F292c…`) no longer looks like one.
 */
import { clip, formatCount } from '../core/text.js';
import { redact } from '../redact/index.js';
import type { Topic } from './request.js';

export const MAX_ROWS = 15;
export const MAX_BYTES = 4096;

export interface Fact {
  label: string;
  value: string;
}

export interface SystemInfoAnswer {
  topic: Topic;
  /** One line: what was read and how much of it is shown. */
  summary: string;
  facts: Fact[];
  columns: string[];
  rows: string[][];
  /** Rows left out to stay within 15 rows and 4 KiB ("N more"). */
  moreRows: number;
  /** Conventions the numbers follow (what CPU% means, what "available" counts). */
  notes: string[];
  /** What could not be seen, and why; empty when the view was complete. */
  unseen: string[];
  /** The answer as text, at most 4 KiB. */
  text: string;
}

export interface AnswerParts {
  topic: Topic;
  summary: string;
  facts?: Fact[];
  columns?: string[];
  /** All rows, best first, each value whole; the builder redacts, then cuts them. */
  rows?: string[][];
  /** The most characters a column's values show (after redaction); none: shown whole. */
  widths?: (number | undefined)[];
  notes?: string[];
  unseen?: string[];
}

export function buildAnswer(parts: AnswerParts): SystemInfoAnswer {
  const facts = (parts.facts ?? []).map((f) => ({ label: f.label, value: shown(f.value) }));
  const columns = parts.columns ?? [];
  const all = parts.rows ?? [];
  const widths = parts.widths ?? [];
  const rows = all.slice(0, MAX_ROWS).map((r) => r.map((cell, i) => shown(cell, widths[i])));
  const answer: SystemInfoAnswer = {
    topic: parts.topic,
    summary: shown(parts.summary),
    facts,
    columns,
    rows,
    moreRows: all.length - rows.length,
    notes: (parts.notes ?? []).map((n) => shown(n)),
    unseen: (parts.unseen ?? []).map((u) => shown(u)),
    text: '',
  };
  answer.text = render(answer);
  // Over 4 KiB: rows go first (they are counted in "N more"), then long lines are cut.
  while (Buffer.byteLength(answer.text) > MAX_BYTES && answer.rows.length > 0) {
    answer.rows.pop();
    answer.moreRows++;
    answer.text = render(answer);
  }
  if (Buffer.byteLength(answer.text) > MAX_BYTES) answer.text = cutToBytes(answer.text, MAX_BYTES);
  return answer;
}

export function render(a: SystemInfoAnswer): string {
  const lines: string[] = [a.summary];
  const labelWidth = Math.max(0, ...a.facts.map((f) => f.label.length));
  for (const f of a.facts) lines.push(`${`${f.label}:`.padEnd(labelWidth + 1)} ${f.value}`);
  if (a.columns.length > 0 && a.rows.length > 0) {
    lines.push('', ...table(a.columns, a.rows));
  }
  if (a.moreRows > 0) lines.push(`… ${formatCount(a.moreRows)} more`);
  if (a.notes.length > 0 || a.unseen.length > 0) lines.push('');
  for (const n of a.notes) lines.push(`note: ${n}`);
  for (const u of a.unseen) lines.push(`not seen: ${u}`);
  return `${lines.join('\n')}\n`;
}

/** Left-aligned columns, two spaces apart; numeric-looking columns right-aligned; the last not padded. */
function table(columns: string[], rows: string[][]): string[] {
  const width = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = columns.map((_, i) => rows.every((r) => /^[\d.,]+\s?(?:%|B|KiB|MiB|GiB|TiB|PiB)?$|^-$|^\?$/.test(r[i] ?? '')));
  const line = (cells: string[], header: boolean): string =>
    cells
      .map((c, i) => {
        if (i === cells.length - 1) return c;
        const w = width[i] ?? 0;
        return !header && numeric[i] ? c.padStart(w) : c.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  return [line(columns, true), ...rows.map((r) => line(columns.map((_, i) => r[i] ?? ''), false))];
}

/**
 * A value as shown: redacted whole, then its control characters made visible (a folder
 * or process name may hold a newline, which must not start a row of its own), then cut.
 */
export function shown(value: string, width?: number): string {
  const visible = redact(value).replace(/[\u0000-\u001f\u007f]/g, controlEscape);
  return width === undefined ? visible : clip(visible, width);
}

const controlEscape = (c: string): string =>
  c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

function cutToBytes(text: string, max: number): string {
  const suffix = '\n… (cut at 4 KiB)\n';
  const buf = Buffer.from(text, 'utf8');
  let end = max - Buffer.byteLength(suffix);
  // Do not split a UTF-8 sequence.
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8') + suffix;
}

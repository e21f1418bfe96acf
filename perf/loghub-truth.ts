/** Loghub-2k's ground truth (`<S>_2k.log_structured.csv`), for the perf scripts that score against it. */
import { readFileSync } from 'node:fs';

/** RFC 4180 fields of one CSV text: quoted fields may hold commas, quotes and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The true group of each line (1-based LineId -> EventId). */
export function truth(csvPath: string): Map<number, string> {
  const [header, ...rows] = parseCsv(readFileSync(csvPath, 'utf8'));
  const line = header!.indexOf('LineId');
  const event = header!.indexOf('EventId');
  return new Map(rows.filter((r) => r.length > event).map((r) => [Number(r[line]), r[event]!]));
}


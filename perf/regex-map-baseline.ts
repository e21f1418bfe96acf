/**
 * The baseline the issue names: a plain single-threaded condenser, nine regex masks per
 * line, then a Map of templates. Imported by bench-log.ts, and run as a process of its own
 * (`node dist/perf/regex-map-baseline.js FILE`) for the whole-process comparison; it loads
 * nothing of wisp.
 */
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The number of templates: nine regex masks per line, then a Map. */
export async function regexMapCondense(path: string): Promise<number> {
  const masks: [RegExp, string][] = [
    [/^\S+ /, ''],
    [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<UUID>'],
    [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<IP>'],
    [/\b0x[0-9a-f]+\b/gi, '<HEX>'],
    [/\b[0-9a-f]{12,}\b/gi, '<HEX>'],
    [/\[\d+:\d+\]/g, '[<PID>]'],
    [/\b\d+(?:\.\d+)?\b/g, '<NUM>'],
    [/"[^"]*"/g, '"<STR>"'],
    [/\b(?:error|warn|info|debug)\b/gi, (m: string) => m.toUpperCase()] as unknown as [RegExp, string],
  ];
  const groups = new Map<string, number>();
  let carry = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (carry + chunk).split('\n');
    carry = lines.pop()!;
    for (let line of lines) {
      for (const [re, rep] of masks) line = line.replace(re, rep);
      groups.set(line, (groups.get(line) ?? 0) + 1);
    }
  }
  return groups.size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = process.argv[2];
  if (path === undefined) {
    console.error('usage: node dist/perf/regex-map-baseline.js FILE');
    process.exit(2);
  }
  console.log(await regexMapCondense(path));
}

/**
 * `folderSizes`: the size of each folder directly inside a path, largest first, from
 * `du -x -k -d 1 PATH` (one filesystem, hard links once, symlinks not followed); for a
 * folder with no subfolders, its largest files (`du -a`). du exits 1 when it could not
 * read some entries but still prints what it measured: a partial answer, said so, not a
 * failure. A 30 s timeout keeps what was measured by then.
 *
 * A name may hold a newline (`x\n99999999\tfake` would read as a second, 95 GiB entry),
 * so GNU du's lines are NUL-terminated (-0). macOS's du has no -0: there every line must
 * name the folder itself or an entry that readdir() also lists, and lines that do not are
 * counted as names that could not be told apart, not shown.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, plural } from '../format.js';
import { probeTimeoutSeconds, runProbe } from '../probe.js';

export interface DuLine {
  kib: number;
  path: string;
}

/** du's `KIB<TAB>PATH` records, each ended by `separator` (NUL with -0, else newline). */
export function parseDu(stdout: string, separator: '\0' | '\n'): DuLine[] {
  const out: DuLine[] = [];
  for (const line of stdout.split(separator)) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const size = line.slice(0, tab);
    if (/^\d+$/.test(size)) out.push({ kib: Number(size), path: line.slice(tab + 1) });
  }
  return out;
}

/** du's messages without its own name in front (`/usr/bin/du: cannot read directory ...`). */
export const duProblem = (line: string): string => line.replace(/^(?:\S*\/)?du: /, '');

interface Entries {
  folders: Set<string>;
  files: Set<string>;
}

async function entriesOf(path: string): Promise<Entries> {
  const folders = new Set<string>();
  const files = new Set<string>();
  for (const e of await readdir(path, { withFileTypes: true })) (e.isDirectory() ? folders : files).add(e.name);
  return { folders, files };
}

export async function folderSizesTopic(ctx: TopicContext, path: string): Promise<AnswerParts> {
  // `path` is validated: an existing folder's real, absolute path (it cannot start with '-').
  let entries: Entries;
  try {
    entries = await entriesOf(path);
  } catch (err) {
    return {
      topic: 'folderSizes',
      summary: `folderSizes: ${path} cannot be listed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      unseen: [`the entries of ${path}: this user may not read the folder`],
    };
  }
  const listFiles = entries.folders.size === 0;
  const nul = process.platform !== 'darwin';
  const args = [...(nul ? ['-0'] : []), '-x', '-k', ...(listFiles ? ['-a'] : []), '-d', '1', path];
  const r = await runProbe('du', args, ctx.signal);
  return folderSizesAnswer(path, entries, r, nul ? '\0' : '\n');
}

interface DuRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
}

/** The answer from du's output and the folder's entries (tests give captured ones). */
export function folderSizesAnswer(path: string, entries: Entries, r: DuRun, separator: '\0' | '\n'): AnswerParts {
  const listFiles = entries.folders.size === 0;
  const lines = parseDu(r.stdout, separator);
  const total = lines.find((l) => l.path === path);
  const wanted = listFiles ? entries.files : entries.folders;
  const children: DuLine[] = [];
  let unmatched = 0;
  for (const l of lines) {
    if (l.path === path) continue;
    if (dirname(l.path) === path && wanted.has(basename(l.path))) children.push(l);
    else unmatched++;
  }
  children.sort((a, b) => b.kib - a.kib || a.path.localeCompare(b.path));
  const unseen: string[] = [];
  const problems = r.stderr.split('\n').filter((l) => l.trim() !== '').map(duProblem);
  if (r.timedOut) {
    unseen.push(`du stopped after ${probeTimeoutSeconds('du')} s: the entries listed were measured in full, the others and the total were not`);
  } else if (r.truncated) {
    unseen.push('du printed more than the output cap: entries past it are not listed');
  } else if (r.exitCode !== 0) {
    unseen.push(
      `du could not read ${plural(problems.length, 'entry', 'entries')} (e.g. ${problems[0] ?? 'no message'}): sizes are lower bounds`,
    );
  }
  if (unmatched > 0) {
    unseen.push(`${plural(unmatched, 'line')} of du's output named no entry of ${path} (a name with a newline cannot be told apart without du -0)`);
  }
  if (lines.length === 0 && !r.timedOut) {
    return {
      topic: 'folderSizes',
      summary: `folderSizes: du measured nothing in ${path} (exit ${r.exitCode ?? 'signal'})`,
      unseen: unseen.length > 0 ? unseen : [problems[0] ?? 'du gave no output'],
    };
  }
  const facts: Fact[] = [];
  if (total !== undefined) {
    facts.push({ label: 'total', value: formatBytes(total.kib * 1024) });
    const direct = total.kib - children.reduce((s, c) => s + c.kib, 0);
    if (!listFiles && direct > 0 && entries.files.size > 0) {
      facts.push({ label: 'files directly inside', value: `${formatBytes(direct * 1024)} in ${plural(entries.files.size, 'file')}` });
    }
  }
  const what = listFiles ? 'file' : 'folder';
  return {
    topic: 'folderSizes',
    summary: listFiles
      ? `folderSizes: no folders in ${path}; its ${plural(children.length, 'file')}, largest first`
      : `folderSizes: ${plural(children.length, 'folder')} in ${path}, largest first`,
    facts,
    columns: ['SIZE', what.toUpperCase()],
    rows: children.map((c) => [formatBytes(c.kib * 1024), listFiles ? basename(c.path) : `${basename(c.path)}/`]),
    notes: ['disk usage (du -x): one filesystem, so folders mounted inside are not counted; hard links once'],
    unseen,
  };
}

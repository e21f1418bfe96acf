/**
 * `folderSizes`: the size of each folder directly inside a path, largest first, from
 * `du -x -k -d 1 PATH` (one filesystem, hard links once, symlinks not followed). du exits
 * 1 when it could not read some entries but still prints what it measured: a partial
 * answer, said so, not a failure. A 30 s timeout keeps what was measured by then.
 */
import { basename } from 'node:path';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, plural } from '../format.js';
import { probeTimeoutSeconds, runProbe } from '../probe.js';

interface DuLine {
  kib: number;
  path: string;
}

export function parseDu(stdout: string): DuLine[] {
  const out: DuLine[] = [];
  for (const line of stdout.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const kib = Number(line.slice(0, tab));
    if (Number.isFinite(kib)) out.push({ kib, path: line.slice(tab + 1) });
  }
  return out;
}

export async function folderSizesTopic(ctx: TopicContext, path: string): Promise<AnswerParts> {
  // `path` is validated: an existing folder's real, absolute path (it cannot start with '-').
  const r = await runProbe('du', ['-x', '-k', '-d', '1', path], ctx.signal);
  const lines = parseDu(r.stdout);
  const total = lines.find((l) => l.path === path);
  const children = lines.filter((l) => l.path !== path).sort((a, b) => b.kib - a.kib || a.path.localeCompare(b.path));
  const unseen: string[] = [];
  const problems = r.stderr.split('\n').filter((l) => l.trim() !== '');
  if (r.timedOut) {
    unseen.push(`du stopped after ${probeTimeoutSeconds('du')} s: the folders listed were measured in full, the others and the total were not`);
  } else if (r.truncated) {
    unseen.push('du printed more than the output cap: folders past it are not listed');
  } else if (r.exitCode !== 0) {
    unseen.push(
      `du could not read ${plural(problems.length, 'entry', 'entries')} (e.g. ${problems[0]?.replace(/^du: /, '') ?? 'no message'}): sizes are lower bounds`,
    );
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
    const inChildren = children.reduce((s, c) => s + c.kib, 0);
    const direct = total.kib - inChildren;
    if (direct > 0) facts.push({ label: 'files directly inside', value: formatBytes(direct * 1024) });
  }
  return {
    topic: 'folderSizes',
    summary: `folderSizes: ${plural(children.length, 'folder')} in ${path}, largest first`,
    facts,
    columns: ['SIZE', 'FOLDER'],
    rows: children.map((c) => [formatBytes(c.kib * 1024), `${basename(c.path)}/`]),
    notes: ['disk usage (du -x): one filesystem, so folders mounted inside are not counted; hard links once'],
    unseen,
  };
}

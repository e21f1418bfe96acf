import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { WispError } from '../core/errors.js';

/**
 * Turns the paths a user names into the files to read, in the order to read them:
 * directories are walked (recursively, hidden entries skipped), globs (`*`, `?`, `**`)
 * are expanded, and rotated files are read oldest first: `app.log.3.gz`, `app.log.2`,
 * `app.log.1`, `app.log`. A name that matches nothing is kept, so that reading it reports
 * the error in its place. `left` counts the hidden entries the walks left out, for the
 * result to say so.
 */
export async function expandPaths(paths: string[], left: { hidden: number } = { hidden: 0 }): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push(p);
      continue;
    }
    const found = hasGlob(p) ? await expandGlob(p, left) : await expandOne(p, left);
    if (found.length === 0 && hasGlob(p)) throw new WispError('WISP_FILE_NOT_FOUND', `${p}: no file matches`);
    out.push(...found);
  }
  return out;
}

const hasGlob = (p: string): boolean => /[*?[]/.test(p);

async function expandOne(p: string, left: { hidden: number }): Promise<string[]> {
  let info: Stats;
  try {
    info = await stat(p);
  } catch {
    return [p];
  }
  if (!info.isDirectory()) return [p];
  const files = orderRotated(await walk(p, left));
  if (files.length === 0) throw new WispError('WISP_NOT_A_FILE', `${p} is a folder with no files to read`);
  return files;
}

async function walk(dir: string, left: { hidden: number }): Promise<string[]> {
  const files: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith('.')) {
      left.hidden++;
      continue;
    }
    const full = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await walk(full, left)));
    else if (e.isFile()) files.push(full);
  }
  return files;
}

/** A glob becomes a walk from its fixed leading directories and a regex on the rest. */
async function expandGlob(pattern: string, left: { hidden: number }): Promise<string[]> {
  const parts = pattern.split(sep);
  let fixed = 0;
  while (fixed < parts.length - 1 && !hasGlob(parts[fixed]!)) fixed++;
  const root = parts.slice(0, fixed).join(sep) || (pattern.startsWith(sep) ? sep : '.');
  const re = globRegex(parts.slice(fixed).join(sep));
  let candidates: string[];
  try {
    candidates = await walk(root, left);
  } catch {
    return [];
  }
  const prefix = root === '.' && !pattern.startsWith('.') ? '' : root.endsWith(sep) ? root : root + sep;
  const matched = candidates.filter((f) => re.test(prefix === '' ? f.replace(/^\.\//, '') : f.slice(prefix.length)));
  return orderRotated(matched);
}

function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` matches any number of directories, none included.
      re += glob[i + 2] === sep ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === sep ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|\\[\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** `app.log.2.gz` -> { stem: 'app.log', generation: 2 }; `app.log` -> generation 0. */
function rotation(file: string): { key: string; generation: number } {
  const name = basename(file);
  const m = /^(.*?)\.(\d{1,4})(\.gz)?$/.exec(name);
  if (m !== null && m[1]!.includes('.')) return { key: join(dirname(file), m[1]!), generation: Number(m[2]) };
  return { key: join(dirname(file), name.replace(/\.gz$/, '')), generation: 0 };
}

/**
 * Oldest first within a rotation set (higher generation numbers are older), sets in name
 * order, and date-stamped names (`app-2024-01-02.log`) in name order, which is time order.
 */
export function orderRotated(files: string[]): string[] {
  return [...files].sort((a, b) => {
    const ra = rotation(a);
    const rb = rotation(b);
    if (ra.key !== rb.key) return ra.key < rb.key ? -1 : 1;
    return rb.generation - ra.generation || (a < b ? -1 : a > b ? 1 : 0);
  });
}

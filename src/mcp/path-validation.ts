/**
 * Path containment as a pure function, tested alone (as the MCP reference filesystem
 * server's path-validation.ts): no file system access, so the rule is the same whatever
 * the disk holds. Callers pass real paths (symlinks resolved) where it matters.
 */
import { isAbsolute, normalize, sep } from 'node:path';

/**
 * Whether `path` is `root` or lies inside it: both absolute, `..` and `.` resolved, and a
 * `root + /` prefix, so that /work does not hold /workshop. A NUL byte is never a path.
 */
export function isPathWithinRoot(path: string, root: string): boolean {
  if (path.includes('\0') || root.includes('\0') || !isAbsolute(path) || !isAbsolute(root)) return false;
  const p = normalize(path);
  const r = normalize(root);
  const base = r.endsWith(sep) ? r : r + sep;
  return p === r || p === base || p.startsWith(base);
}

export function isPathWithinRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => isPathWithinRoot(path, root));
}

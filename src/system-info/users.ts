/** User names from uids, read once from /etc/passwd (directory services are not asked). */
import { readFileSync } from 'node:fs';

let names: Map<number, string> | undefined;

export function userName(uid: number): string {
  if (uid < 0) return '?';
  names ??= readPasswd();
  return names.get(uid) ?? String(uid);
}

function readPasswd(): Map<number, string> {
  const map = new Map<number, string>();
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      if (line.startsWith('#')) continue;
      const f = line.split(':');
      const uid = Number(f[2]);
      if (f[0] && Number.isInteger(uid) && !map.has(uid)) map.set(uid, f[0]);
    }
  } catch {
    // No passwd file: uids are shown as numbers.
  }
  return map;
}

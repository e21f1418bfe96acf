/**
 * `freeSpace`: each real filesystem's size, use and what a user can still write
 * (f_bavail, as df shows: on ext4, f_bfree also counts the blocks reserved for root).
 * Linux reads /proc/self/mountinfo and statfs()es each mount; macOS runs `df -kP`.
 */
import { readFile, statfs } from 'node:fs/promises';
import type { AnswerParts } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatPercent, plural } from '../format.js';
import { runProbe } from '../probe.js';

/** A statfs on a stale network mount can hang: each waits this long at most. */
const STATFS_TIMEOUT_MS = 2000;

/** Kernel and virtual filesystems: nothing a user fills. squashfs (snaps) is always full. */
const PSEUDO = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'tmpfs', 'cgroup', 'cgroup2', 'securityfs', 'pstore', 'bpf', 'debugfs',
  'tracefs', 'configfs', 'fusectl', 'mqueue', 'hugetlbfs', 'autofs', 'binfmt_misc', 'rpc_pipefs', 'nsfs', 'efivarfs',
  'squashfs', 'ramfs', 'selinuxfs', 'fuse.gvfsd-fuse', 'fuse.portal', 'fuse.lxcfs', 'overlayfs-meta', 'nfsd', 'devfs',
]);

export interface Mount {
  mountPoint: string;
  fsType: string;
  device: string;
  /** major:minor: bind mounts of one filesystem share it. */
  id: string;
}

/** /proc/self/mountinfo; mount points escape space, tab, newline and backslash as octal. */
export function parseMountinfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    const dash = f.indexOf('-', 6);
    if (dash < 0 || f.length < dash + 3) continue;
    mounts.push({
      id: f[2] ?? '',
      mountPoint: unoctal(f[4] ?? ''),
      fsType: f[dash + 1] ?? '',
      device: unoctal(f[dash + 2] ?? ''),
    });
  }
  return mounts;
}

const unoctal = (s: string): string => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

interface Usage {
  mount: Mount;
  size: number;
  used: number;
  available: number;
}

type StatFs = Awaited<ReturnType<typeof statfs>> & { bsize: number; blocks: number; bfree: number; bavail: number };

function statfsWithTimeout(path: string): Promise<StatFs | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), STATFS_TIMEOUT_MS);
  });
  return Promise.race([statfs(path) as Promise<StatFs>, timeout]).finally(() => clearTimeout(timer));
}

export async function freeSpaceTopic(ctx: TopicContext): Promise<AnswerParts> {
  if (process.platform === 'darwin') return freeSpaceMac(ctx);
  const mounts = parseMountinfo(await readFile('/proc/self/mountinfo', 'utf8'));
  const real: Mount[] = [];
  const ids = new Set<string>();
  let pseudo = 0;
  for (const m of mounts) {
    if (PSEUDO.has(m.fsType) || m.mountPoint.startsWith('/proc/') || m.mountPoint.startsWith('/sys/')) {
      pseudo++;
      continue;
    }
    // Bind mounts repeat a filesystem: the first (the one mounted first, usually the shortest path) stands for it.
    if (ids.has(m.id)) continue;
    ids.add(m.id);
    real.push(m);
  }
  const unseen: string[] = [];
  const usages: Usage[] = [];
  await Promise.all(
    real.map(async (m) => {
      try {
        const s = await statfsWithTimeout(m.mountPoint);
        if (s === 'timeout') {
          unseen.push(`${m.mountPoint} (${m.fsType}) did not answer within ${STATFS_TIMEOUT_MS / 1000} s (a stale network mount?)`);
          return;
        }
        if (s.blocks === 0) return; // an empty virtual filesystem
        usages.push({
          mount: m,
          size: s.blocks * s.bsize,
          used: (s.blocks - s.bfree) * s.bsize,
          available: s.bavail * s.bsize,
        });
      } catch (err) {
        unseen.push(`${m.mountPoint}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }),
  );
  return answer(usages, unseen, pseudo > 0 ? `${plural(pseudo, 'virtual filesystem')} (proc, sysfs, tmpfs, cgroup, squashfs, ...) not listed` : undefined);
}

function answer(usages: Usage[], unseen: string[], skipped: string | undefined): AnswerParts {
  // Fullest first: the question is usually what is running out.
  const share = (u: Usage): number => (u.used + u.available > 0 ? u.used / (u.used + u.available) : 0);
  usages.sort((a, b) => share(b) - share(a) || a.mount.mountPoint.localeCompare(b.mount.mountPoint));
  const notes = ['AVAIL is what a user can still write (f_bavail, as df shows); USE% is used / (used + avail), as df computes it'];
  if (skipped !== undefined) notes.push(skipped);
  return {
    topic: 'freeSpace',
    summary: `freeSpace: ${plural(usages.length, 'filesystem')}, fullest first`,
    columns: ['MOUNT', 'TYPE', 'SIZE', 'USED', 'AVAIL', 'USE%'],
    rows: usages.map((u) => [
      u.mount.mountPoint,
      u.mount.fsType,
      formatBytes(u.size),
      formatBytes(u.used),
      formatBytes(u.available),
      formatPercent(Math.ceil(share(u) * 100)),
    ]),
    notes,
    unseen: unseen.sort(),
  };
}

/**
 * macOS: `df -kP` (POSIX format, 1024-byte blocks). Written against the documented
 * format; not run on a Mac in this repository's tests.
 */
async function freeSpaceMac(ctx: TopicContext): Promise<AnswerParts> {
  const r = await runProbe('df', ['-kP'], ctx.signal);
  const usages: Usage[] = [];
  let pseudo = 0;
  for (const line of r.stdout.split('\n').slice(1)) {
    // Filesystem 1024-blocks Used Available Capacity Mounted-on (the mount point may hold spaces).
    const m = /^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+(.+)$/.exec(line);
    if (m === null) continue;
    const device = m[1]!;
    if (!device.startsWith('/dev/') && !device.includes(':') && !device.startsWith('//')) {
      pseudo++;
      continue;
    }
    usages.push({
      mount: { mountPoint: m[5]!, fsType: device.startsWith('/dev/') ? 'local' : 'network', device, id: device },
      size: Number(m[2]) * 1024,
      used: Number(m[3]) * 1024,
      available: Number(m[4]) * 1024,
    });
  }
  const unseen = r.exitCode !== 0 ? [`df exited ${r.exitCode ?? 'on a signal'}: ${r.stderr.split('\n')[0] ?? ''}`] : [];
  return answer(usages, unseen, pseudo > 0 ? `${plural(pseudo, 'virtual filesystem')} (devfs, map, ...) not listed` : undefined);
}

/**
 * `freeSpace`: each filesystem a user can fill, its size, use and what a user can still
 * write (f_bavail, as df shows: on ext4, f_bfree also counts the blocks reserved for
 * root), and its inode use: a filesystem with every inode used refuses new files
 * (ENOSPC) however much space is free. Fullest first, by whichever of the two is fuller.
 * Linux reads /proc/self/mountinfo; macOS lists mounts with `df -kP`; both statfs() each.
 */
import { readFile, statfs } from 'node:fs/promises';
import type { AnswerParts } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatPercent, plural } from '../format.js';
import { runProbe } from '../probe.js';

/** A statfs on a stale network mount can hang: each waits this long at most. */
const STATFS_TIMEOUT_MS = 2000;

/**
 * Kernel and virtual filesystems: nothing a user fills. squashfs (snaps) is always full.
 * tmpfs is not among them: /dev/shm, a tmpfs /tmp or /run fill up like any disk (in RAM).
 */
const PSEUDO = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'cgroup', 'cgroup2', 'securityfs', 'pstore', 'bpf', 'debugfs',
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

/**
 * The mounts worth listing: no virtual filesystems, nothing under /proc or /sys; a mount
 * point mounted over (twice in mountinfo) once, as the one on top, which is what a path
 * there reaches; a filesystem bind-mounted in several places once, where it was first
 * mounted (usually the shortest path).
 */
export function fillableMounts(mounts: Mount[]): { mounts: Mount[]; virtual: number } {
  let virtual = 0;
  const top = new Map<string, Mount>();
  for (const m of mounts) {
    if (PSEUDO.has(m.fsType) || m.mountPoint.startsWith('/proc/') || m.mountPoint.startsWith('/sys/')) {
      virtual++;
      continue;
    }
    top.delete(m.mountPoint); // a later mount on the same point hides the earlier one
    top.set(m.mountPoint, m);
  }
  const ids = new Set<string>();
  const out: Mount[] = [];
  for (const m of mounts) {
    if (top.get(m.mountPoint) !== m || ids.has(m.id)) continue;
    ids.add(m.id);
    out.push(m);
  }
  return { mounts: out, virtual };
}

export interface Usage {
  mount: Mount;
  size: number;
  used: number;
  available: number;
  /** Inodes in all and free; undefined where the filesystem has no fixed count (btrfs reports 0). */
  inodes: number | undefined;
  inodesFree: number | undefined;
  /** Other volumes sharing this one's space (an APFS container's), listed by mount point. */
  sharedWith?: string[];
}

/** Used / (used + available), as df computes USE%. */
export const byteShare = (u: Usage): number => (u.used + u.available > 0 ? u.used / (u.used + u.available) : 0);
export const inodeShare = (u: Usage): number | undefined =>
  u.inodes === undefined || u.inodesFree === undefined || u.inodes <= 0 ? undefined : (u.inodes - u.inodesFree) / u.inodes;
/** Whichever runs out first. */
const fullness = (u: Usage): number => Math.max(byteShare(u), inodeShare(u) ?? 0);

type StatFs = Awaited<ReturnType<typeof statfs>> & { bsize: number; blocks: number; bfree: number; bavail: number; files: number; ffree: number };

function statfsWithTimeout(path: string): Promise<StatFs | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), STATFS_TIMEOUT_MS);
  });
  return Promise.race([statfs(path) as Promise<StatFs>, timeout]).finally(() => clearTimeout(timer));
}

export function usageOf(mount: Mount, s: StatFs): Usage {
  return {
    mount,
    size: s.blocks * s.bsize,
    used: (s.blocks - s.bfree) * s.bsize,
    available: s.bavail * s.bsize,
    inodes: s.files > 0 ? s.files : undefined,
    inodesFree: s.files > 0 ? s.ffree : undefined,
  };
}

/** statfs() for every mount at once; a mount that fails or hangs is said, not dropped. */
async function statAll(mounts: Mount[], unseen: string[]): Promise<Usage[]> {
  const usages: Usage[] = [];
  await Promise.all(
    mounts.map(async (m) => {
      try {
        const s = await statfsWithTimeout(m.mountPoint);
        if (s === 'timeout') {
          unseen.push(`${m.mountPoint} (${m.fsType}) did not answer within ${STATFS_TIMEOUT_MS / 1000} s (a stale network mount?)`);
          return;
        }
        if (s.blocks === 0) return; // an empty virtual filesystem
        usages.push(usageOf(m, s));
      } catch (err) {
        unseen.push(`${m.mountPoint}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }),
  );
  return usages;
}

export async function freeSpaceTopic(ctx: TopicContext): Promise<AnswerParts> {
  if (process.platform === 'darwin') return freeSpaceMac(ctx);
  const { mounts, virtual } = fillableMounts(parseMountinfo(await readFile('/proc/self/mountinfo', 'utf8')));
  const unseen: string[] = [];
  const usages = await statAll(mounts, unseen);
  return freeSpaceAnswer(usages, unseen, virtual > 0 ? `${plural(virtual, 'virtual filesystem')} (proc, sysfs, cgroup, devtmpfs, squashfs, ...) not listed` : undefined);
}

/** The answer from usages already read (tests give it captured ones). */
export function freeSpaceAnswer(usages: Usage[], unseen: string[], skipped: string | undefined): AnswerParts {
  // Fullest first: the question is usually what is running out.
  const sorted = [...usages].sort((a, b) => fullness(b) - fullness(a) || a.mount.mountPoint.localeCompare(b.mount.mountPoint));
  const notes = [
    'AVAIL is what a user can still write (f_bavail, as df shows); USE% is used / (used + avail), as df computes it',
    'IUSE% is the share of inodes used: at 100% no file can be created, however much space is free; listed by whichever is fuller',
  ];
  const inodeBound = sorted.filter((u) => (inodeShare(u) ?? 0) > byteShare(u) && (inodeShare(u) ?? 0) >= 0.9);
  if (inodeBound.length > 0) notes.push(`running out of inodes before space: ${inodeBound.map((u) => u.mount.mountPoint).join(', ')}`);
  for (const u of sorted) {
    if (u.sharedWith !== undefined && u.sharedWith.length > 0) {
      notes.push(`${u.mount.mountPoint} shares its APFS container (${u.mount.id}) with ${u.sharedWith.join(', ')}: one row for the container's one pool of free space`);
    }
  }
  if (skipped !== undefined) notes.push(skipped);
  return {
    topic: 'freeSpace',
    summary: `freeSpace: ${plural(sorted.length, 'filesystem')}, fullest first`,
    columns: ['MOUNT', 'TYPE', 'SIZE', 'USED', 'AVAIL', 'USE%', 'IUSE%'],
    rows: sorted.map((u) => {
      const inodes = inodeShare(u);
      return [
        u.sharedWith !== undefined && u.sharedWith.length > 0 ? `${u.mount.mountPoint} (+${u.sharedWith.length} volumes)` : u.mount.mountPoint,
        u.mount.fsType,
        formatBytes(u.size),
        formatBytes(u.used),
        formatBytes(u.available),
        formatPercent(Math.ceil(byteShare(u) * 100)),
        inodes === undefined ? '-' : formatPercent(Math.ceil(inodes * 100)),
      ];
    }),
    notes,
    unseen: unseen.sort(),
  };
}

/** One line of `df -kP`: device, 1024-byte blocks, mount point (which may hold spaces). */
export interface DfLine {
  device: string;
  size: number;
  used: number;
  available: number;
  mountPoint: string;
}

export function parseDfP(stdout: string): DfLine[] {
  const out: DfLine[] = [];
  for (const line of stdout.split('\n').slice(1)) {
    // Filesystem 1024-blocks Used Available Capacity Mounted-on
    // The device may hold a space too (`map auto_home`).
    const m = /^(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+(.+)$/.exec(line);
    if (m === null) continue;
    out.push({ device: m[1]!, size: Number(m[2]) * 1024, used: Number(m[3]) * 1024, available: Number(m[4]) * 1024, mountPoint: m[5]! });
  }
  return out;
}

/**
 * The volumes of one APFS container (/dev/disk3s1, /dev/disk3s5, ... of the synthesized
 * disk3) each report the container's size and its one free pool: listed apart, the free
 * space would be counted once per volume. Volumes of one disk with the same size and
 * free space are grouped into one row for the container (partitions of one physical
 * disk have sizes of their own, so they stay apart); the row's USED is the container's.
 */
export function groupApfsContainers(usages: Usage[]): Usage[] {
  const groups = new Map<string, Usage[]>();
  const out: Usage[] = [];
  for (const u of usages) {
    const disk = /^\/dev\/(disk\d+)s\d+/.exec(u.mount.device)?.[1];
    if (disk === undefined) {
      out.push(u);
      continue;
    }
    const key = `${disk} ${u.size} ${u.available}`;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [u]);
    else list.push(u);
  }
  for (const [key, list] of groups) {
    if (list.length === 1) {
      out.push(list[0]!);
      continue;
    }
    // The container stands under its shortest mount point (/ before /System/Volumes/Data).
    const sorted = [...list].sort((a, b) => a.mount.mountPoint.length - b.mount.mountPoint.length || a.mount.mountPoint.localeCompare(b.mount.mountPoint));
    const first = sorted[0]!;
    const inodeFull = list.map(inodeShare).filter((v): v is number => v !== undefined);
    const worst = inodeFull.length > 0 ? list[inodeFull.indexOf(Math.max(...inodeFull))] : undefined;
    out.push({
      mount: { ...first.mount, fsType: 'apfs', id: key.split(' ')[0]! },
      size: first.size,
      used: first.size - first.available,
      available: first.available,
      inodes: worst?.inodes,
      inodesFree: worst?.inodesFree,
      sharedWith: sorted.slice(1).map((u) => u.mount.mountPoint),
    });
  }
  return out;
}

/**
 * macOS: the mount list from `df -kP` (POSIX format, 1024-byte blocks), then statfs() on
 * each, as on Linux (df's own figures when statfs fails). Written against the documented formats; not run on a Mac in this
 * repository's tests.
 */
async function freeSpaceMac(ctx: TopicContext): Promise<AnswerParts> {
  const r = await runProbe('df', ['-kP'], ctx.signal);
  const unseen = r.exitCode !== 0 ? [`df exited ${r.exitCode ?? 'on a signal'}: ${r.stderr.split('\n')[0] ?? ''}`] : [];
  let virtual = 0;
  const usages: Usage[] = [];
  await Promise.all(
    parseDfP(r.stdout).map(async (d) => {
      if (!d.device.startsWith('/dev/') && !d.device.includes(':') && !d.device.startsWith('//')) {
        virtual++;
        return;
      }
      const mount: Mount = { mountPoint: d.mountPoint, fsType: d.device.startsWith('/dev/') ? 'local' : 'network', device: d.device, id: d.device };
      const s = await statfsWithTimeout(d.mountPoint).catch(() => undefined);
      usages.push(
        s === undefined || s === 'timeout'
          ? { mount, size: d.size, used: d.used, available: d.available, inodes: undefined, inodesFree: undefined }
          : usageOf(mount, s),
      );
    }),
  );
  return freeSpaceAnswer(groupApfsContainers(usages), unseen, virtual > 0 ? `${plural(virtual, 'virtual filesystem')} (devfs, map, ...) not listed` : undefined);
}

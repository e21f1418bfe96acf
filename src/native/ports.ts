/** Listening sockets and their owners from the native library. */
import { callNative } from './call.js';
import { num, splitRecords, unescapeField } from './records.js';

export interface NativeSocket {
  proto: 'tcp' | 'udp';
  family: 4 | 6;
  /** As inet_ntop writes it: 127.0.0.1, ::1, 0.0.0.0, ::. */
  address: string;
  port: number;
  inode: number;
  /** The socket owner's uid (known even when its process is not). */
  uid: number;
  /** IPv6 only (IPV6_V6ONLY): true; also takes IPv4 (dual-stack), or IPv4: false; undefined when the source does not say. */
  v6only: boolean | undefined;
  /** Every process holding the socket; empty when none could be seen. */
  pids: number[];
}

export interface SocketOwner {
  /** The kernel's short name (at most 15 bytes on Linux). */
  comm: string;
  /** Basenames of the executable and argv[0]; '' when unreadable. */
  exeBase: string;
  argv0Base: string;
}

/** A protocol and family whose sockets could not be read from any source. */
export interface SocketSourceFailure {
  proto: 'tcp' | 'udp';
  family: 4 | 6;
  errno: number;
  message: string;
}

export interface NativeSocketTable {
  /** Where sockets came from, per protocol (and family when they differ): `tcp:sock_diag,udp4:sock_diag,udp6:procfs`. */
  source: string;
  /** Processes whose descriptors could not be read (other users' without root). */
  fdDenied: number;
  pidsScanned: number;
  sockets: NativeSocket[];
  /** The processes that hold listed sockets. */
  owners: Map<number, SocketOwner>;
  /** The pids whose descriptors could not be read: what they hold is unknown. */
  deniedPids: Set<number>;
  failures: SocketSourceFailure[];
}

/** The kernel keeps this many bytes of a name at most (Linux TASK_COMM_LEN - 1; macOS keeps 16). */
const COMM_BYTES = 15;

/**
 * A holder's name as a person would say it. The kernel's name is cut at 15 bytes
 * (`systemd-resolve`): when it is that long, the executable's basename, or else argv[0]'s
 * first word, is used if it is the longer form of the same name. A shorter kernel name
 * is whole (argv[0] may be rewritten: `redis-server 127.0.0.1:6379`).
 */
export function ownerName(o: SocketOwner): string {
  if (o.comm === '') return o.exeBase || o.argv0Base.split(' ')[0] || '?';
  if (o.comm.length < COMM_BYTES) return o.comm;
  for (const full of [o.exeBase, o.argv0Base.split(' ')[0] ?? '']) {
    if (full.length > o.comm.length && full.startsWith(o.comm)) return full;
  }
  return o.comm;
}

/** Linux: read /proc/net/{tcp,udp}[6] instead of sock_diag (tests compare the two sources). Must equal WISP_PORTS_PROCFS. */
export const PORTS_PROCFS = 1;

export async function readListeningSockets(opts: { signal?: AbortSignal; procfs?: boolean } = {}): Promise<NativeSocketTable> {
  const flags = opts.procfs === true ? PORTS_PROCFS : 0;
  const { data } = await callNative('reading listening sockets', (lib, token) => [lib.ports, [token, flags]], opts.signal);
  return parseSocketTable(data);
}

export function parseSocketTable(data: Buffer): NativeSocketTable {
  const table: NativeSocketTable = {
    source: '', fdDenied: 0, pidsScanned: 0, sockets: [], owners: new Map(), deniedPids: new Set(), failures: [],
  };
  for (const f of splitRecords(data)) {
    if (f[0] === 'H') {
      table.source = f[1] ?? '';
      table.fdDenied = num(f[2]);
      table.pidsScanned = num(f[3]);
    } else if (f[0] === 'S' && f.length >= 9) {
      const v6only = num(f[7], -1);
      table.sockets.push({
        proto: f[1] === 'udp' ? 'udp' : 'tcp',
        family: f[2] === '6' ? 6 : 4,
        address: f[3] ?? '',
        port: num(f[4]),
        inode: num(f[5]),
        uid: num(f[6], -1),
        v6only: v6only < 0 ? undefined : v6only === 1,
        pids: (f[8] ?? '').split(',').filter((p) => p !== '').map(Number),
      });
    } else if (f[0] === 'O' && f.length >= 3) {
      table.owners.set(num(f[1]), {
        comm: unescapeField(f[2] ?? ''),
        exeBase: unescapeField(f[3] ?? ''),
        argv0Base: unescapeField(f[4] ?? ''),
      });
    } else if (f[0] === 'D' && f.length >= 2) {
      table.deniedPids.add(num(f[1]));
    } else if (f[0] === 'E' && f.length >= 5) {
      table.failures.push({ proto: f[1] === 'udp' ? 'udp' : 'tcp', family: f[2] === '6' ? 6 : 4, errno: num(f[3]), message: unescapeField(f[4] ?? '') });
    }
  }
  return table;
}

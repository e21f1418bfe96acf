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
  /** Every process holding the socket; empty when none could be seen. */
  pids: number[];
}

export interface NativeSocketTable {
  /** Where sockets came from, per protocol: `tcp:sock_diag,udp:procfs`. */
  source: string;
  /** Processes whose descriptors could not be read (other users' without root). */
  fdDenied: number;
  pidsScanned: number;
  sockets: NativeSocket[];
  /** Names of the processes that hold listed sockets. */
  owners: Map<number, string>;
}

/** Linux: read /proc/net/{tcp,udp}[6] instead of sock_diag (tests compare the two sources). */
const PORTS_PROCFS = 1;

export async function readListeningSockets(opts: { signal?: AbortSignal; procfs?: boolean } = {}): Promise<NativeSocketTable> {
  const flags = opts.procfs === true ? PORTS_PROCFS : 0;
  const { data } = await callNative('reading listening sockets', (lib, token) => [lib.ports, [token, flags]], opts.signal);
  return parseSocketTable(data);
}

export function parseSocketTable(data: Buffer): NativeSocketTable {
  const table: NativeSocketTable = { source: '', fdDenied: 0, pidsScanned: 0, sockets: [], owners: new Map() };
  for (const f of splitRecords(data)) {
    if (f[0] === 'H') {
      table.source = f[1] ?? '';
      table.fdDenied = num(f[2]);
      table.pidsScanned = num(f[3]);
    } else if (f[0] === 'S' && f.length >= 8) {
      table.sockets.push({
        proto: f[1] === 'udp' ? 'udp' : 'tcp',
        family: f[2] === '6' ? 6 : 4,
        address: f[3] ?? '',
        port: num(f[4]),
        inode: num(f[5]),
        uid: num(f[6], -1),
        pids: (f[7] ?? '').split(',').filter((p) => p !== '').map(Number),
      });
    } else if (f[0] === 'O' && f.length >= 3) {
      table.owners.set(num(f[1]), unescapeField(f[2] ?? ''));
    }
  }
  return table;
}

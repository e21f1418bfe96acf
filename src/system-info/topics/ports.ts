/**
 * `ports`: listening TCP sockets and bound UDP sockets, with every process holding each.
 * Without root, other users' processes cannot be looked into: such a socket is still
 * listed, with its owner's user, and the answer says the view is limited.
 */
import { ownerName, readListeningSockets, type NativeSocket, type NativeSocketTable } from '../../native/ports.js';
import type { AnswerParts } from '../answer.js';
import type { TopicContext } from '../context.js';
import { plural } from '../format.js';
import { userName } from '../users.js';

/** `tcp 127.0.0.1:8080`, `udp [::1]:53`, `tcp [::]:80 v4+v6`. */
export function socketLabel(s: NativeSocket): string {
  return `${s.proto} ${hostPort(s)}`;
}

/**
 * The address and port. A socket on `::` either takes IPv4 too (dual-stack) or IPv6 only
 * (IPV6_V6ONLY), and the two answer different clients: said when the source tells.
 */
function hostPort(s: NativeSocket): string {
  if (s.family === 4) return `${s.address}:${s.port}`;
  const stack = s.address === '::' && s.v6only !== undefined ? (s.v6only ? ' v6only' : ' v4+v6') : '';
  return `[${s.address}]:${s.port}${stack}`;
}

const FAMILY_WORDS = { 4: 'IPv4', 6: 'IPv6' } as const;
const ENOENT = 2;

/** A kernel without IPv6 has no /proc/net/tcp6: nothing is hidden then. */
const noIpv6 = (f: NativeSocketTable['failures'][number]): boolean => f.family === 6 && f.errno === ENOENT;

/** What could not be read at all, in words: its sockets are missing from any answer. */
export function sourceFailures(table: NativeSocketTable): string[] {
  return table.failures
    .filter((f) => !noIpv6(f))
    .map((f) => `${f.proto} sockets over ${FAMILY_WORDS[f.family]}: neither source could be read (${f.message}); none of them is listed`);
}

export async function portsTopic(ctx: TopicContext, port: number | undefined): Promise<AnswerParts> {
  return portsAnswer(await readListeningSockets({ signal: ctx.signal }), port, ctx.isRoot);
}

/** The answer from a socket table already read (tests give it captured ones). */
export function portsAnswer(table: NativeSocketTable, port: number | undefined, isRoot: boolean): AnswerParts {
  // SO_REUSEPORT servers open one socket per worker on the same address: one row each address.
  const merged = new Map<string, NativeSocket>();
  for (const s of table.sockets) {
    if (port !== undefined && s.port !== port) continue;
    const key = socketLabel(s);
    const seen = merged.get(key);
    if (seen === undefined) merged.set(key, { ...s, pids: [...s.pids] });
    else for (const p of s.pids) if (!seen.pids.includes(p)) seen.pids.push(p);
  }
  const sockets = [...merged.values()].sort(
    (a, b) => a.port - b.port || a.proto.localeCompare(b.proto) || a.family - b.family || a.address.localeCompare(b.address),
  );
  const ownerless = sockets.filter((s) => s.pids.length === 0);
  const unseen = sourceFailures(table);
  if (ownerless.length > 0) {
    const why = table.fdDenied > 0
      ? `the descriptors of ${plural(table.fdDenied, 'process', 'processes')} could not be read (${isRoot ? 'protected processes' : "other users' processes, without root"})`
      : 'no process visible here holds them (another namespace or container)';
    unseen.push(`the processes holding ${plural(ownerless.length, 'socket')}: ${why}; the socket's owning user is shown instead`);
  }
  const tcp = sockets.filter((s) => s.proto === 'tcp').length;
  const missing = table.failures.filter((f) => !noIpv6(f)).map((f) => `${f.proto}${f.family}`);
  const summary = port === undefined
    ? `ports: ${plural(sockets.length, 'listening socket')} (tcp ${tcp}, udp ${sockets.length - tcp})`
    : sockets.length > 0
      ? `ports: ${plural(sockets.length, 'socket')} on port ${port}`
      : missing.length === 0
        ? `ports: nothing listens on port ${port} (tcp or udp)`
        : `ports: no socket seen on port ${port}, but ${missing.join(', ')} could not be read`;
  const notes = ['tcp sockets in LISTEN and udp sockets bound but not connected (what ss -ltnup lists)', `read from ${table.source}`];
  if (sockets.some((s) => s.address === '::' && s.v6only !== undefined)) {
    notes.push('[::] v4+v6 is a dual-stack socket (it takes IPv4 clients too); [::] v6only takes IPv6 only (IPV6_V6ONLY)');
  }
  if (table.failures.some(noIpv6)) notes.push('this kernel has no IPv6 (/proc/net/tcp6 is absent)');
  return {
    topic: 'ports',
    summary,
    columns: ['PROTO', 'ADDRESS', 'PID', 'PROCESS', 'USER'],
    widths: [undefined, undefined, undefined, 40, 16],
    rows: sockets.map((s) => {
      const pids = s.pids.slice().sort((a, b) => a - b);
      const owner = (p: number): string => {
        const o = table.owners.get(p);
        return o === undefined ? '?' : ownerName(o);
      };
      const names = [...new Set(pids.map(owner))];
      return [
        s.proto,
        hostPort(s),
        pids.length === 0 ? '?' : pids.length <= 3 ? pids.join(',') : `${pids.slice(0, 3).join(',')} +${pids.length - 3}`,
        pids.length === 0 ? '?' : names.join(','),
        userName(s.uid),
      ];
    }),
    notes,
    unseen,
  };
}

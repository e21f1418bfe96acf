/**
 * `ports`: listening TCP sockets and bound UDP sockets, with every process holding each.
 * Without root, other users' processes cannot be looked into: such a socket is still
 * listed, with its owner's user, and the answer says the view is limited.
 */
import { readListeningSockets, type NativeSocket } from '../../native/ports.js';
import type { AnswerParts } from '../answer.js';
import type { TopicContext } from '../context.js';
import { clip, plural } from '../format.js';
import { userName } from '../users.js';

/** `tcp 127.0.0.1:8080`, `udp [::1]:53`. */
export function socketLabel(s: NativeSocket): string {
  return `${s.proto} ${hostPort(s)}`;
}

function hostPort(s: NativeSocket): string {
  return s.family === 6 ? `[${s.address}]:${s.port}` : `${s.address}:${s.port}`;
}

export async function portsTopic(ctx: TopicContext, port: number | undefined): Promise<AnswerParts> {
  const table = await readListeningSockets({ signal: ctx.signal });
  // SO_REUSEPORT servers open one socket per worker on the same address: one row each address.
  const merged = new Map<string, NativeSocket>();
  for (const s of table.sockets) {
    if (port !== undefined && s.port !== port) continue;
    const key = `${s.proto} ${hostPort(s)}`;
    const seen = merged.get(key);
    if (seen === undefined) merged.set(key, { ...s, pids: [...s.pids] });
    else for (const p of s.pids) if (!seen.pids.includes(p)) seen.pids.push(p);
  }
  const sockets = [...merged.values()].sort(
    (a, b) => a.port - b.port || a.proto.localeCompare(b.proto) || a.family - b.family || a.address.localeCompare(b.address),
  );
  const ownerless = sockets.filter((s) => s.pids.length === 0);
  const unseen: string[] = [];
  if (ownerless.length > 0) {
    const why = table.fdDenied > 0
      ? `the descriptors of ${plural(table.fdDenied, 'process', 'processes')} could not be read (${ctx.isRoot ? 'protected processes' : "other users' processes, without root"})`
      : 'no process visible here holds them (another namespace or container)';
    unseen.push(`the processes holding ${plural(ownerless.length, 'socket')}: ${why}; the socket's owning user is shown instead`);
  }
  const tcp = sockets.filter((s) => s.proto === 'tcp').length;
  const summary = port === undefined
    ? `ports: ${plural(sockets.length, 'listening socket')} (tcp ${tcp}, udp ${sockets.length - tcp})`
    : sockets.length === 0
      ? `ports: nothing listens on port ${port} (tcp or udp)`
      : `ports: ${plural(sockets.length, 'socket')} on port ${port}`;
  return {
    topic: 'ports',
    summary,
    columns: ['PROTO', 'ADDRESS', 'PID', 'PROCESS', 'USER'],
    rows: sockets.map((s) => {
      const pids = s.pids.slice().sort((a, b) => a - b);
      const names = [...new Set(pids.map((p) => table.owners.get(p) ?? '?'))];
      return [
        s.proto,
        hostPort(s),
        pids.length === 0 ? '?' : pids.length <= 3 ? pids.join(',') : `${pids.slice(0, 3).join(',')} +${pids.length - 3}`,
        pids.length === 0 ? '?' : clip(names.join(','), 40),
        userName(s.uid),
      ];
    }),
    notes: ['tcp sockets in LISTEN and udp sockets bound but not connected (what ss -ltnup lists)', `read from ${table.source}`],
    unseen,
  };
}

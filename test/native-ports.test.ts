import test from 'ava';
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { readListeningSockets, type NativeSocketTable } from '../src/native/ports.js';

// Every socket here is on the loopback address 127.0.0.1 (the IPv6 one is its v4-mapped form).

async function listen(host: string): Promise<Server> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  return server;
}

const portOf = (s: Server): number => (s.address() as { port: number }).port;

function find(table: NativeSocketTable, proto: string, address: string, port: number) {
  return table.sockets.filter((s) => s.proto === proto && s.address === address && s.port === port);
}

test('a TCP listener and a UDP socket the test opens are found with its pid, from sock_diag and from /proc/net alike', async (t) => {
  const tcp = await listen('127.0.0.1');
  const tcp6 = await listen('::ffff:127.0.0.1');
  const udp = createSocket('udp4');
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  try {
    for (const procfs of [false, true]) {
      const table = await readListeningSockets({ procfs });
      const label = procfs ? 'procfs' : 'sock_diag';
      t.regex(table.source, procfs ? /^tcp:procfs,udp:procfs$/ : /^tcp\d?:(?:sock_diag|procfs)(?:,tcp6:(?:sock_diag|procfs))?,udp\d?:(?:sock_diag|procfs)(?:,udp6:(?:sock_diag|procfs))?$/);
      const v4 = find(table, 'tcp', '127.0.0.1', portOf(tcp));
      t.is(v4.length, 1, `${label}: tcp 127.0.0.1:${portOf(tcp)}`);
      t.deepEqual(v4[0]!.pids, [process.pid]);
      t.is(v4[0]!.family, 4);
      t.is(v4[0]!.uid, process.getuid!());
      // IPv6 words decoded in the right order: not ::ffff:1.0.0.127 or a scrambled address.
      const v6 = find(table, 'tcp', '::ffff:127.0.0.1', portOf(tcp6));
      t.is(v6.length, 1, `${label}: tcp [::ffff:127.0.0.1]:${portOf(tcp6)}`);
      t.is(v6[0]!.family, 6);
      t.deepEqual(v6[0]!.pids, [process.pid]);
      const u = find(table, 'udp', '127.0.0.1', udp.address().port);
      t.is(u.length, 1, `${label}: udp 127.0.0.1:${udp.address().port}`);
      t.deepEqual(u[0]!.pids, [process.pid]);
      t.is(table.owners.get(process.pid)?.comm, 'node');
    }
  } finally {
    tcp.close();
    tcp6.close();
    udp.close();
  }
});

test('a socket shared with a child (as forked servers do) lists both pids', async (t) => {
  const server = await listen('127.0.0.1');
  const child = spawn(process.execPath, ['-e', "process.on('message', (m, handle) => { process.send('holding'); setInterval(() => {}, 1e9); });"], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    child.send('server', server);
    await once(child, 'message');
    const table = await readListeningSockets();
    const row = find(table, 'tcp', '127.0.0.1', portOf(server));
    t.is(row.length, 1);
    t.deepEqual([...row[0]!.pids].sort((a, b) => a - b), [process.pid, child.pid!].sort((a, b) => a - b));
  } finally {
    child.kill('SIGKILL');
    server.close();
  }
});

test('a closed socket is gone', async (t) => {
  const server = await listen('127.0.0.1');
  const port = portOf(server);
  server.close();
  await once(server, 'close');
  const table = await readListeningSockets();
  t.is(find(table, 'tcp', '127.0.0.1', port).length, 0);
});

/**
 * `network`: interfaces with their state and addresses, the default route, and DNS.
 * Linux: os.networkInterfaces(), /sys/class/net/<if>/operstate, /proc/net/route (hex in
 * host byte order), /etc/resolv.conf. macOS: the same interface list and `scutil --nwi`
 * for the primary interface. Addresses pass through redaction (public IPv4 is personal data).
 */
import { readdir, readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { runProbe } from '../probe.js';

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** The default IPv4 route from /proc/net/route: `iface gateway` with the gateway's bytes in host order. */
export function parseDefaultRoute(text: string): { iface: string; gateway: string } | undefined {
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1] !== '00000000' || f[7] !== '00000000') continue;
    const hex = f[2] ?? '';
    if (!/^[0-9A-Fa-f]{8}$/.test(hex)) continue;
    const b = Buffer.alloc(4);
    b.writeUInt32LE(parseInt(hex, 16));
    return { iface: f[0] ?? '?', gateway: [...b].join('.') };
  }
  return undefined;
}

export function parseResolvConf(text: string): { servers: string[]; search: string[] } {
  const servers: string[] = [];
  const search: string[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 'nameserver' && f[1] !== undefined) servers.push(f[1]);
    if (f[0] === 'search' || f[0] === 'domain') search.push(...f.slice(1));
  }
  return { servers, search };
}

export async function networkTopic(ctx: TopicContext): Promise<AnswerParts> {
  const ifaces = networkInterfaces();
  const names = new Set(Object.keys(ifaces));
  const facts: Fact[] = [];
  const state = new Map<string, string>();
  if (process.platform === 'linux') {
    // Interfaces without an address (down, or not configured) are in /sys only.
    try {
      for (const n of await readdir('/sys/class/net')) names.add(n);
    } catch {
      // no sysfs: the interfaces with addresses are all there is
    }
    for (const n of names) state.set(n, (await readOptional(`/sys/class/net/${n}/operstate`)) ?? '?');
    const route = parseDefaultRoute((await readOptional('/proc/net/route')) ?? '');
    facts.push({ label: 'default route', value: route ? `via ${route.gateway} on ${route.iface}` : 'none (IPv4)' });
  } else if (process.platform === 'darwin') {
    const nwi = await runProbe('scutil', ['--nwi'], ctx.signal);
    const primary = /Network interfaces:\s*(\S+)/.exec(nwi.stdout)?.[1];
    facts.push({ label: 'primary interface', value: primary ?? 'none' });
  }
  const dns = parseResolvConf((await readOptional('/etc/resolv.conf')) ?? '');
  facts.push({ label: 'dns', value: dns.servers.length > 0 ? dns.servers.join(', ') : 'none in /etc/resolv.conf' });
  if (dns.search.length > 0) facts.push({ label: 'search', value: dns.search.join(' ') });
  const rows = [...names].sort().map((n) => {
    const addrs = (ifaces[n] ?? []).map((a) => a.cidr ?? a.address);
    return [n, state.get(n) ?? (addrs.length > 0 ? 'up' : '?'), addrs.join(' ') || '-'];
  });
  // Up interfaces first, loopback last among them.
  const rank = (r: string[]): number => (r[1] === 'up' ? 0 : r[1] === 'unknown' ? 1 : 2);
  rows.sort((a, b) => rank(a) - rank(b) || (a[0] ?? '').localeCompare(b[0] ?? ''));
  return {
    topic: 'network',
    summary: `network: ${rows.length} interfaces`,
    facts,
    columns: ['INTERFACE', 'STATE', 'ADDRESSES'],
    rows,
    notes: process.platform === 'linux' ? ["STATE is the kernel's operstate (loopback reports 'unknown')"] : [],
  };
}

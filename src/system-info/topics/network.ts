/**
 * `network`: interfaces with their state and addresses, the default routes (IPv4 and
 * IPv6), and DNS. Linux: os.networkInterfaces(), /sys/class/net/<if>/operstate,
 * /proc/net/route (hex in host byte order), /proc/net/ipv6_route, /etc/resolv.conf. macOS:
 * the same interface list and `scutil --nwi` for the primary interfaces.
 *
 * A public address is personal data, and the redaction module hides one wherever it is
 * shown. An interface's `192.0.2.2/24` reads to it as a network, not an address, so each
 * address is redacted bare and its prefix length added after: a gateway and the address
 * next to it get the same treatment.
 */
import { readdir, readFile } from 'node:fs/promises';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { redact } from '../../redact/index.js';
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

export interface DefaultRoute {
  iface: string;
  /** undefined: the route has no gateway (a point-to-point link). */
  gateway: string | undefined;
  metric: number;
}

const RTF_UP = 0x1;
const RTF_GATEWAY = 0x2;
const RTF_REJECT = 0x200;

/** The route the kernel uses by default: up, not a reject route, the lowest metric. */
function best(routes: DefaultRoute[]): DefaultRoute | undefined {
  return routes.sort((a, b) => a.metric - b.metric || a.iface.localeCompare(b.iface))[0];
}

/** The default IPv4 route from /proc/net/route: the gateway's bytes are in host order (little-endian here). */
export function parseDefaultRoute(text: string): DefaultRoute | undefined {
  const routes: DefaultRoute[] = [];
  for (const line of text.split('\n').slice(1)) {
    // Iface Destination Gateway Flags RefCnt Use Metric Mask ...
    const f = line.trim().split(/\s+/);
    if (f[1] !== '00000000' || f[7] !== '00000000') continue;
    const flags = parseInt(f[3] ?? '', 16);
    const hex = f[2] ?? '';
    if (!(flags & RTF_UP) || flags & RTF_REJECT || !/^[0-9A-Fa-f]{8}$/.test(hex)) continue;
    const b = Buffer.alloc(4);
    b.writeUInt32LE(parseInt(hex, 16));
    routes.push({ iface: f[0] ?? '?', gateway: flags & RTF_GATEWAY ? [...b].join('.') : undefined, metric: Number(f[6]) || 0 });
  }
  return best(routes);
}

/** An address of 32 hex digits written the usual way (fd00::1). */
function ipv6Text(hex: string): string {
  const groups = hex.match(/.{4}/g) ?? [];
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** The default IPv6 route from /proc/net/ipv6_route: `::/0`, up, not the loopback's reject route. */
export function parseDefaultRoute6(text: string): DefaultRoute | undefined {
  const routes: DefaultRoute[] = [];
  for (const line of text.split('\n')) {
    // dest dest_len src src_len next_hop metric refcnt use flags iface
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !/^0{32}$/.test(f[0] ?? '') || f[1] !== '00' || !/^[0-9a-f]{32}$/i.test(f[4] ?? '')) continue;
    const flags = parseInt(f[8] ?? '', 16);
    if (!(flags & RTF_UP) || flags & RTF_REJECT) continue;
    const gateway = /^0{32}$/.test(f[4]!) ? undefined : ipv6Text(f[4]!);
    routes.push({ iface: f[9] ?? '?', gateway, metric: parseInt(f[5] ?? '0', 16) || 0 });
  }
  return best(routes);
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

/** `scutil --nwi`: the interfaces listed under its IPv4 and IPv6 sections, first the primary. */
export function parseScutilNwi(text: string): { v4: string[]; v6: string[] } {
  const out = { v4: [] as string[], v6: [] as string[] };
  let section: 'v4' | 'v6' | undefined;
  for (const line of text.split('\n')) {
    if (/^IPv4 network interface information/.test(line)) section = 'v4';
    else if (/^IPv6 network interface information/.test(line)) section = 'v6';
    else if (/^Network interfaces:/.test(line)) section = undefined;
    const m = /^\s+(\S+) : flags\s+:/.exec(line);
    if (m !== null && section !== undefined) out[section].push(m[1]!);
  }
  return out;
}

type Hide = (address: string) => string;

const routeText = (r: DefaultRoute | undefined, hide: Hide): string =>
  r === undefined ? 'none' : r.gateway === undefined ? `on ${r.iface} (no gateway)` : `via ${hide(r.gateway)} on ${r.iface}`;

/** An interface address as shown: the bare address redacted, then its prefix length. */
export function addressText(a: Pick<NetworkInterfaceInfo, 'address' | 'cidr'>, hide: Hide = redact): string {
  const prefix = a.cidr?.split('/')[1];
  return `${hide(a.address)}${prefix !== undefined ? `/${prefix}` : ''}`;
}

export async function networkTopic(ctx: TopicContext): Promise<AnswerParts> {
  const ifaces = networkInterfaces();
  const names = new Set(Object.keys(ifaces));
  let hidden = false;
  const hide: Hide = (address) => {
    const shown = redact(address);
    if (shown !== address) hidden = true;
    return shown;
  };
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
    facts.push(
      { label: 'default route', value: routeText(parseDefaultRoute((await readOptional('/proc/net/route')) ?? ''), hide) },
      { label: 'default route v6', value: routeText(parseDefaultRoute6((await readOptional('/proc/net/ipv6_route')) ?? ''), hide) },
    );
  } else if (process.platform === 'darwin') {
    const nwi = parseScutilNwi((await runProbe('scutil', ['--nwi'], ctx.signal)).stdout);
    facts.push(
      { label: 'primary interface', value: nwi.v4[0] ?? 'none (IPv4)' },
      { label: 'primary v6', value: nwi.v6[0] ?? 'none (IPv6)' },
    );
  }
  const dns = parseResolvConf((await readOptional('/etc/resolv.conf')) ?? '');
  facts.push({ label: 'dns', value: dns.servers.length > 0 ? dns.servers.map(hide).join(', ') : 'none in /etc/resolv.conf' });
  if (dns.search.length > 0) facts.push({ label: 'search', value: dns.search.join(' ') });
  const rows = [...names].sort().map((n) => {
    const addrs = (ifaces[n] ?? []).map((a) => addressText(a, hide));
    return [n, state.get(n) ?? (addrs.length > 0 ? 'up' : '?'), addrs.join(' ') || '-'];
  });
  // Up interfaces first, loopback last among them.
  const rank = (r: string[]): number => (r[1] === 'up' ? 0 : r[1] === 'unknown' ? 1 : 2);
  rows.sort((a, b) => rank(a) - rank(b) || (a[0] ?? '').localeCompare(b[0] ?? ''));
  const notes = process.platform === 'linux' ? ["STATE is the kernel's operstate (loopback reports 'unknown')"] : [];
  if (hidden) {
    notes.push('public addresses are redacted (personal data), gateways and interface addresses alike; private, loopback and link-local ones are shown');
  }
  return {
    topic: 'network',
    summary: `network: ${rows.length} interfaces`,
    facts,
    columns: ['INTERFACE', 'STATE', 'ADDRESSES'],
    rows,
    notes,
  };
}

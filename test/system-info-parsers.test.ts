/**
 * system_info's parsers over what the probes printed: Linux output captured on a real
 * machine by fixtures/capture-probes.ts (it built the cases: full and inode-less tmpfs,
 * a folder named `x\n99999999\tfake`, a zombie, a process that ended mid-sample, ...), and
 * macOS output written from the documented formats (no Mac here; fixtures/probes/README.md).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProcessTable, type NativeProcessTable } from '../src/native/processes.js';
import { ownerName, parseSocketTable } from '../src/native/ports.js';
import { buildAnswer, shown, type SystemInfoAnswer } from '../src/system-info/answer.js';
import { duProblem, folderSizesAnswer, parseDu } from '../src/system-info/topics/folder-sizes.js';
import {
  fillableMounts, freeSpaceAnswer, groupApfsContainers, parseDfP, parseMountinfo, usageOf, type Usage,
} from '../src/system-info/topics/free-space.js';
import { parseMeminfo, parseMemoryFreePercent, parseSwapUsage } from '../src/system-info/topics/memory.js';
import { addressText, parseDefaultRoute, parseDefaultRoute6, parseResolvConf, parseScutilNwi } from '../src/system-info/topics/network.js';
import { parsePmsetBatt } from '../src/system-info/topics/battery.js';
import { parseOsRelease, parseSwVers } from '../src/system-info/topics/system.js';
import { portsAnswer } from '../src/system-info/topics/ports.js';
import { processAnswer } from '../src/system-info/topics/process.js';
import { processesAnswer } from '../src/system-info/topics/processes.js';
import { CAPTURED_TOKEN } from '../fixtures/capture-probes.js';
import { ROOT } from './helpers.js';

const LINUX = join(ROOT, 'fixtures', 'probes', 'linux');
const MACOS = join(ROOT, 'fixtures', 'probes', 'macos');
const linux = (name: string): string => readFileSync(join(LINUX, name), 'utf8');
const macos = (name: string): string => readFileSync(join(MACOS, name), 'utf8');

interface Capture {
  du: Record<'tree' | 'flat' | 'closed', { path: string; folders: string[]; files: string[] }>;
  pids: { sleeper: number; zombieParent: number; zombie: number; manyGroups: number; withToken: number; ender: number; kernel: number[] };
  ports: { v4: number; dual: number; v6only: number; udp: number; longName: number };
  self: number;
  longNamePid: number;
}
const capture = JSON.parse(linux('capture.json')) as Capture;
const viewer = { isRoot: true, platform: 'linux' as const };

function cell(a: SystemInfoAnswer, row: string[] | undefined, column: string): string {
  return row?.[a.columns.indexOf(column)] ?? '';
}

/** Every run of 8 characters of the token: none may be shown. */
function tokenPieces(token: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= token.length; i++) out.push(token.slice(i, i + 8));
  return out;
}

// ---- freeSpace ----

function capturedUsages(): Usage[] {
  const stats = JSON.parse(linux('statfs.json')) as Record<string, Parameters<typeof usageOf>[1]>;
  return fillableMounts(parseMountinfo(linux('mountinfo.txt'))).mounts.map((m) => usageOf(m, stats[m.mountPoint]!));
}

test('mountinfo: tmpfs is listed, proc, sysfs, cgroup and devpts are not; an over-mount once, a bind mount once', (t) => {
  const { mounts, virtual } = fillableMounts(parseMountinfo(linux('mountinfo.txt')));
  const points = mounts.map((m) => m.mountPoint);
  t.true(points.includes('/dev/shm'));
  t.true(points.includes('/tmp/wisp-capture/full'));
  t.true(points.includes('/tmp/wisp-capture/no-inodes'));
  t.true(points.includes('/tmp/wisp-capture/with space'), 'octal \\040 decoded');
  t.is(points.filter((p) => p === '/tmp/wisp-capture/over').length, 1);
  t.is(points.filter((p) => p === '/dev/shm').length, 1);
  t.false(points.includes('/tmp/wisp-capture/full-bind'), 'the bind mount is the same filesystem as full');
  for (const p of points) t.false(p === '/proc' || p === '/sys' || p.startsWith('/sys/') || p === '/dev/pts', p);
  t.true(virtual >= 4);
  // The over-mount that counts is the one on top (size=3m), which statfs reaches.
  const over = capturedUsages().find((u) => u.mount.mountPoint === '/tmp/wisp-capture/over')!;
  t.is(over.size, 3 * 1024 * 1024);
});

test('freeSpace: the full tmpfs and the one out of inodes come first, inode use stated', (t) => {
  const a = buildAnswer(freeSpaceAnswer(capturedUsages(), [], undefined));
  const byMount = new Map(a.rows.map((r) => [r[0], r]));
  const full = byMount.get('/tmp/wisp-capture/full')!;
  const noInodes = byMount.get('/tmp/wisp-capture/no-inodes')!;
  t.is(cell(a, full, 'USE%'), '100%');
  t.is(cell(a, noInodes, 'IUSE%'), '100%');
  t.is(cell(a, noInodes, 'USE%'), '0%', 'no space used: only the inodes are gone');
  t.deepEqual(a.rows.slice(0, 2).map((r) => r[0]).sort(), ['/tmp/wisp-capture/full', '/tmp/wisp-capture/no-inodes']);
  t.is(cell(a, full, 'TYPE'), 'tmpfs');
  t.regex(a.text, /running out of inodes before space: \/tmp\/wisp-capture\/no-inodes/);
});

test('df -kP (macOS, written from the format): APFS volumes of one container are one row; partitions of one disk stay apart', (t) => {
  const lines = parseDfP(macos('df-kP.txt'));
  t.true(lines.some((l) => l.device === 'map auto_home'), 'a device with a space');
  const usages: Usage[] = lines
    .filter((l) => l.device.startsWith('/dev/') || l.device.startsWith('//'))
    .map((l) => ({
      mount: { mountPoint: l.mountPoint, fsType: 'local', device: l.device, id: l.device },
      size: l.size, used: l.used, available: l.available, inodes: undefined, inodesFree: undefined,
    }));
  const grouped = groupApfsContainers(usages);
  const root = grouped.find((u) => u.mount.mountPoint === '/')!;
  t.deepEqual(root.sharedWith, ['/System/Volumes/VM', '/System/Volumes/Data', '/System/Volumes/Update', '/System/Volumes/Preboot']);
  t.is(root.available, 210612196 * 1024, 'the free pool counted once');
  t.is(root.used, (482797652 - 210612196) * 1024, "the container's used space");
  t.false(grouped.some((u) => u.mount.mountPoint.startsWith('/System/Volumes/Data')));
  t.truthy(grouped.find((u) => u.mount.mountPoint === '/Volumes/Backup Disk'));
  t.truthy(grouped.find((u) => u.mount.mountPoint === '/Volumes/Other Partition'));
  const a = buildAnswer(freeSpaceAnswer(grouped, [], undefined));
  t.true(a.rows.some((r) => r[0] === '/ (+4 volumes)' && r[1] === 'apfs'), a.text);
  t.regex(a.text, /\/ shares its APFS container \(disk3\) with/);
});

// ---- network, memory, system ----

test('/proc/net/route and ipv6_route: the default routes and their gateways', (t) => {
  t.deepEqual(parseDefaultRoute(linux('route.txt')), { iface: 'eth0', gateway: '192.0.2.1', metric: 0 });
  const v6 = parseDefaultRoute6(linux('ipv6_route.txt'));
  t.is(v6?.iface, 'eth0');
  t.is(v6?.gateway, 'fd00::1');
  // The loopback's reject route (::/0 on lo) is not a default route.
  t.is(parseDefaultRoute6(linux('ipv6_route.txt').split('\n').filter((l) => !l.includes(' eth0')).join('\n')), undefined);
});

test('an interface address is redacted by the same rule as a gateway, its prefix kept', (t) => {
  const a = addressText({ address: '192.0.2.2', cidr: '192.0.2.2/24' });
  t.is(a, `${shown('192.0.2.2')}/24`);
  t.not(a, '192.0.2.2/24', 'a documentation-range address reads as public to the redactor');
  t.is(addressText({ address: '10.1.2.3', cidr: '10.1.2.3/8' }), '10.1.2.3/8');
});

test('resolv.conf, meminfo, os-release as captured', (t) => {
  t.true(parseResolvConf(linux('resolv.conf')).servers.length >= 1);
  const mem = parseMeminfo(linux('meminfo.txt'));
  t.true((mem.get('MemTotal') ?? 0) > (mem.get('MemAvailable') ?? Infinity));
  t.truthy(parseOsRelease(linux('os-release.txt')).get('PRETTY_NAME'));
});

test('macOS probes, written from their formats: scutil --nwi, pmset, memory_pressure, vm.swapusage, sw_vers', (t) => {
  t.deepEqual(parseScutilNwi(macos('scutil-nwi.txt')), { v4: ['en0', 'utun3'], v6: ['en0'] });
  t.deepEqual(parsePmsetBatt(macos('pmset-batt.txt')), { source: 'Battery Power', rows: [['InternalBattery-0', '76%', 'discharging', '4:12 remaining']] });
  t.is(parseMemoryFreePercent(macos('memory_pressure.txt')), 61);
  t.deepEqual(parseSwapUsage(macos('sysctl-vm.swapusage.txt')), { total: 2048 * 1024 * 1024, used: 1023.25 * 1024 * 1024 });
  t.is(parseSwVers(macos('sw_vers.txt')).get('ProductVersion'), '14.5');
});

// ---- folderSizes ----

const duRun = (name: string) => ({
  stdout: linux(`${name}.out`), stderr: linux(`${name}.err`), exitCode: Number(linux(`${name}.status`)), timedOut: false, truncated: false,
});
const entriesOf = (k: keyof Capture['du']) => ({ folders: new Set(capture.du[k].folders), files: new Set(capture.du[k].files) });

test('du -0: a folder named x\\n99999999\\tfake is one folder, shown with its newline visible, and no fake row', (t) => {
  const tree = capture.du.tree.path;
  const lines = parseDu(linux('du-folders.out'), '\0');
  t.true(lines.some((l) => l.path === `${tree}/x\n99999999\tfake`));
  const a = buildAnswer(folderSizesAnswer(tree, entriesOf('tree'), duRun('du-folders'), '\0'));
  t.deepEqual(a.rows.map((r) => r[1]), ['big/', 'x\\n99999999\\tfake/', 'small/']);
  t.false(a.text.includes('GiB'), a.text);
  t.deepEqual(a.unseen, []);
  t.regex(a.text, /files directly inside: 5\d\d KiB in 1 file/);
});

test('du without -0 (as macOS prints it): the newline splits a name, and the pieces are not passed off as entries', (t) => {
  const tree = capture.du.tree.path;
  // What splitting on newlines alone made of it: a 95 GiB "fake" entry.
  t.true(parseDu(linux('du-folders-newline.out'), '\n').some((l) => l.kib === 99999999 && l.path.startsWith('fake')));
  const a = buildAnswer(folderSizesAnswer(tree, entriesOf('tree'), duRun('du-folders-newline'), '\n'));
  t.deepEqual(a.rows.map((r) => r[1]), ['big/', 'small/']);
  t.false(a.text.includes('fake/'));
  t.regex(a.unseen.join('\n'), /2 lines of du's output named no entry/);
});

test('du -a: a folder with no subfolders lists its largest files', (t) => {
  const a = buildAnswer(folderSizesAnswer(capture.du.flat.path, entriesOf('flat'), duRun('du-files'), '\0'));
  t.deepEqual(a.rows.map((r) => r[1]), ['a.log', 'b.log', 'name\\nwith newline.log']);
  t.deepEqual(a.columns, ['SIZE', 'FILE']);
  t.regex(a.summary, /no folders in .*; its 3 files, largest first/);
});

test("du's messages lose its own path: '/usr/bin/du: cannot read directory' reads 'cannot read directory'", (t) => {
  const a = buildAnswer(folderSizesAnswer(capture.du.closed.path, entriesOf('closed'), duRun('du-partial'), '\0'));
  t.regex(linux('du-partial.err'), /^\/usr\/bin\/du: /);
  t.is(a.unseen.length, 1);
  t.regex(a.unseen[0]!, /^du could not read 1 entry \(e\.g\. cannot read directory '.*closed': Permission denied\): sizes are lower bounds$/);
  t.is(duProblem('du: x'), 'x');
});

// ---- the process table ----

const table = (): NativeProcessTable => parseProcessTable(Buffer.from(linux('processes.records')));

test('the process table: zombie, ended, 1,000 groups, kernel threads and the CPU split, as the library wrote them', (t) => {
  const tb = table();
  const p = (pid: number) => tb.processes.find((x) => x.pid === pid)!;
  t.is(p(capture.pids.zombie).state, 'Z');
  t.is(p(capture.pids.ender).cpuNs2, undefined, 'ended during the sample');
  t.is(p(capture.pids.ender).cmdline, '/bin/sleep 0.25', 'its command line was read before it ended');
  t.true(p(capture.pids.manyGroups).rssBytes > 1024 * 1024, 'resident size from statm, whatever the status file holds');
  for (const k of capture.pids.kernel) t.true(p(k).kernelThread);
  t.truthy(tb.processes.find((x) => x.name === 'ksoftirqd/0'));
  t.truthy(tb.machineCpu);
  t.true(tb.machineCpu![1].steal !== undefined && tb.machineCpu![1].iowait !== undefined);
});

test('processes: the machine CPU split, zombies as zombies, an ended process said to have ended', (t) => {
  const a = buildAnswer(processesAnswer(table(), viewer, 2));
  t.regex(a.facts.find((f) => f.label === 'machine CPU')!.value, /^[\d.]+% user, [\d.]+% system, [\d.]+% irq, [\d.]+% iowait, [\d.]+% steal, [\d.]+% idle of 2 cores over 0\.50 s$/);
  t.regex(a.text, new RegExp(`ended during the sample, so not ranked: ${capture.pids.ender} sleep`));
  t.regex(a.text, new RegExp(`1 zombie process \\(exited, not yet reaped by parent ${capture.pids.zombieParent}\\): ${capture.pids.zombie} sleep`));
  const zombie = a.rows.find((r) => r[0] === String(capture.pids.zombie));
  t.is(cell(a, zombie, 'S'), 'Z');
  t.is(cell(a, zombie, 'COMMAND'), '[sleep] <defunct>');
  t.false(a.rows.some((r) => r[0] === String(capture.pids.ender)), 'not ranked');
  t.deepEqual(a.unseen, [], 'zombies and ended processes are not counted as protected');
  const sleeper = a.rows.find((r) => r[0] === String(capture.pids.sleeper))!;
  t.is(cell(a, sleeper, 'THR'), '7');
  t.regex(cell(a, sleeper, 'TIME'), /^\d\.\d\ds$/);
  t.regex(cell(a, sleeper, 'AGE'), /^\d+s$/);
});

test('process: a process that ended mid-sample shows "ended", with its command line, not [name]', (t) => {
  const a = buildAnswer(processAnswer(table(), new Error('not read'), { pid: capture.pids.ender }, viewer));
  t.is(cell(a, a.rows[0], 'CPU%'), 'ended');
  t.is(cell(a, a.rows[0], 'COMMAND'), '/bin/sleep 0.25');
  t.regex(a.facts[0]!.value, /1 ended during the sample/);
});

test('a token after a long argument: redacted whole, then cut, so no piece of it is shown', (t) => {
  const tb = table();
  const p = tb.processes.find((x) => x.pid === capture.pids.withToken)!;
  t.true(p.cmdline.includes(CAPTURED_TOKEN));
  const a = buildAnswer(processAnswer(tb, new Error('not read'), { pid: p.pid }, viewer));
  const json = JSON.stringify(a);
  for (const piece of tokenPieces(CAPTURED_TOKEN)) t.false(json.includes(piece), piece);
  t.regex(cell(a, a.rows[0], 'COMMAND'), / b{35} \[REDACTED/);
});

test('shown(): redaction sees the whole value before the cut; control characters become visible', (t) => {
  const line = `${'a'.repeat(60)} ${CAPTURED_TOKEN}`;
  // Cut first, the token's first half stays and no longer looks like a token.
  t.true(line.slice(0, 79).includes('ghp_16C7e4'));
  const cut = shown(line, 80);
  for (const piece of tokenPieces(CAPTURED_TOKEN)) t.false(cut.includes(piece), piece);
  t.true(cut.length <= 80);
  t.is(shown('a\nb\tc\r\u001b'), 'a\\nb\\tc\\r\\x1b');
});

// ---- sockets ----

test('sockets: dual-stack and IPv6-only told apart, the full name of a long-named holder', (t) => {
  const tb = parseSocketTable(Buffer.from(linux('ports.records')));
  const a = buildAnswer(portsAnswer(tb, undefined, true));
  const row = (port: number) => a.rows.find((r) => r[1]!.includes(`:${port}`));
  t.is(row(capture.ports.dual)![1], `[::]:${capture.ports.dual} v4+v6`);
  t.is(row(capture.ports.v6only)![1], `[::]:${capture.ports.v6only} v6only`);
  t.is(row(capture.ports.v4)![1], `127.0.0.1:${capture.ports.v4}`);
  t.is(cell(a, row(capture.ports.longName), 'PROCESS'), 'wisp-a-long-listener-name');
  t.is(tb.owners.get(capture.longNamePid)!.comm, 'wisp-a-long-lis', 'the kernel keeps 15 bytes');
  t.regex(a.text, /dual-stack socket/);
  t.is(ownerName({ comm: 'redis-server', exeBase: 'redis-server', argv0Base: 'redis-server *:6379' }), 'redis-server');
});

test('sockets from /proc/net: no word on IPV6_V6ONLY, so none is given', (t) => {
  const tb = parseSocketTable(Buffer.from(linux('ports-procfs.records')));
  t.is(tb.source, 'tcp:procfs,udp:procfs');
  const a = buildAnswer(portsAnswer(tb, capture.ports.dual, true));
  t.is(a.rows[0]![1], `[::]:${capture.ports.dual}`);
});

test('sockets as nobody saw them: the root holder is unknown, its pid named as unreadable', (t) => {
  const tb = parseSocketTable(Buffer.from(linux('ports-nobody.records')));
  t.true(tb.deniedPids.has(capture.self));
  const a = buildAnswer(portsAnswer(tb, capture.ports.v4, false));
  t.is(cell(a, a.rows[0], 'PID'), '?');
  t.regex(a.unseen[0]!, /other users' processes, without root/);
});

test('a protocol neither source could read is said, and "nothing listens" is not claimed', (t) => {
  const records = `${linux('ports.records')}E\tudp\t6\t13\tsock_diag: Permission denied; /proc/net/udp6: Permission denied\n`;
  const a = buildAnswer(portsAnswer(parseSocketTable(Buffer.from(records)), 1, true));
  t.is(a.summary, 'ports: no socket seen on port 1, but udp6 could not be read');
  t.regex(a.unseen.join('\n'), /udp sockets over IPv6: neither source could be read \(sock_diag: Permission denied/);
  const none = buildAnswer(portsAnswer(parseSocketTable(Buffer.from(linux('ports.records'))), 1, true));
  t.is(none.summary, 'ports: nothing listens on port 1 (tcp or udp)');
});

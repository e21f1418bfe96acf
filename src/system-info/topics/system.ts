/** `system`: the OS, kernel, machine, uptime, load, CPUs and whether this is a container. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { arch, cpus, hostname, loadavg, release, totalmem, uptime } from 'node:os';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatBytes, formatDuration } from '../format.js';
import { runProbe } from '../probe.js';

export function parseOsRelease(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m !== null) out.set(m[1]!, m[2]!.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'));
  }
  return out;
}

/** `sw_vers`: `ProductName:\tmacOS` lines. */
export function parseSwVers(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^(\w+):\s*(.+)$/.exec(line);
    if (m !== null) out.set(m[1]!, m[2]!.trim());
  }
  return out;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A hint only: /.dockerenv, /run/.containerenv (podman), or a container path in /proc/1/cgroup. */
async function containerHint(): Promise<string | undefined> {
  if (existsSync('/.dockerenv')) return 'docker (/.dockerenv)';
  if (existsSync('/run/.containerenv')) return 'podman (/run/.containerenv)';
  const cgroup = await readOptional('/proc/1/cgroup');
  const m = cgroup === undefined ? null : /\/(docker|kubepods|lxc|containerd|libpod)[/-]/.exec(cgroup);
  return m === null ? undefined : `${m[1]} (/proc/1/cgroup)`;
}

export async function systemTopic(ctx: TopicContext): Promise<AnswerParts> {
  const list = cpus();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const facts: Fact[] = [];
  if (process.platform === 'darwin') {
    const [vers, model] = await Promise.all([
      runProbe('sw_vers', [], ctx.signal),
      runProbe('sysctl', ['-n', 'hw.model'], ctx.signal),
    ]);
    const v = parseSwVers(vers.stdout);
    const field = (k: string): string => v.get(k) ?? '?';
    facts.push({ label: 'os', value: `${field('ProductName')} ${field('ProductVersion')} (${field('BuildVersion')})` });
    facts.push({ label: 'model', value: model.stdout.trim() || '?' });
  } else {
    const osr = parseOsRelease((await readOptional('/etc/os-release')) ?? '');
    facts.push({ label: 'os', value: osr.get('PRETTY_NAME') ?? osr.get('NAME') ?? 'Linux (no /etc/os-release)' });
  }
  facts.push(
    { label: 'kernel', value: `${release()} (${arch()})` },
    { label: 'host', value: hostname() },
    { label: 'uptime', value: formatDuration(uptime()) },
    { label: 'load', value: `${load} (1, 5, 15 min; ${list.length} CPUs)` },
    { label: 'cpu', value: `${list.length} × ${list[0]?.model.trim() ?? '?'}` },
    { label: 'memory', value: formatBytes(totalmem()) },
  );
  if (process.platform === 'linux') {
    const hint = await containerHint();
    facts.push({ label: 'container', value: hint ?? 'none detected' });
  }
  return { topic: 'system', summary: 'system: this machine', facts };
}

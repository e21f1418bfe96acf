/**
 * `battery`: every battery in /sys/class/power_supply (type Battery, not scope Device: a
 * mouse reports its own battery) and whether mains power is on; names vary (BAT0, BAT1,
 * CMB1, ...). No battery is an answer, said so. macOS: `pmset -g batt`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnswerParts, Fact } from '../answer.js';
import type { TopicContext } from '../context.js';
import { formatDuration, plural } from '../format.js';
import { runProbe } from '../probe.js';

const SUPPLIES = '/sys/class/power_supply';

async function attr(dir: string, name: string): Promise<string | undefined> {
  try {
    return (await readFile(join(dir, name), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

const numAttr = async (dir: string, name: string): Promise<number | undefined> => {
  const v = await attr(dir, name);
  return v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);
};

export async function batteryTopic(ctx: TopicContext): Promise<AnswerParts> {
  if (process.platform === 'darwin') return batteryMac(ctx);
  let names: string[] = [];
  try {
    names = (await readdir(SUPPLIES)).sort();
  } catch {
    // No power_supply class at all (a VM, a container): no battery to report.
  }
  const rows: string[][] = [];
  const facts: Fact[] = [];
  let mains: boolean | undefined;
  for (const name of names) {
    const dir = join(SUPPLIES, name);
    const type = await attr(dir, 'type');
    if (type === 'Mains') {
      const online = await attr(dir, 'online');
      mains = (mains ?? false) || online === '1';
      continue;
    }
    if (type !== 'Battery' || (await attr(dir, 'scope')) === 'Device') continue;
    const status = (await attr(dir, 'status')) ?? '?';
    const now = (await numAttr(dir, 'energy_now')) ?? (await numAttr(dir, 'charge_now'));
    const full = (await numAttr(dir, 'energy_full')) ?? (await numAttr(dir, 'charge_full'));
    const design = (await numAttr(dir, 'energy_full_design')) ?? (await numAttr(dir, 'charge_full_design'));
    const rate = (await numAttr(dir, 'power_now')) ?? (await numAttr(dir, 'current_now'));
    const capacity = (await numAttr(dir, 'capacity')) ?? (now !== undefined && full ? Math.round((now / full) * 100) : undefined);
    let remaining = '-';
    // energy in µWh over power in µW (or charge in µAh over current in µA) is hours.
    if (rate !== undefined && rate > 0 && now !== undefined) {
      if (status === 'Discharging') remaining = `${formatDuration((now / rate) * 3600)} to empty`;
      else if (status === 'Charging' && full !== undefined) remaining = `${formatDuration(((full - now) / rate) * 3600)} to full`;
    }
    rows.push([
      name,
      capacity === undefined ? '?' : `${capacity}%`,
      status,
      remaining,
      full !== undefined && design ? `${Math.round((full / design) * 100)}%` : '?',
    ]);
  }
  if (mains !== undefined) facts.push({ label: 'power', value: mains ? 'on mains (AC)' : 'not on mains' });
  if (rows.length === 0) {
    return {
      topic: 'battery',
      summary: `battery: none found (${plural(names.length, 'power supply', 'power supplies')} in ${SUPPLIES})`,
      facts,
    };
  }
  return {
    topic: 'battery',
    summary: `battery: ${plural(rows.length, 'battery', 'batteries')}`,
    facts,
    columns: ['NAME', 'CHARGE', 'STATUS', 'TIME', 'HEALTH'],
    rows,
    notes: ['HEALTH is the full charge now against the design capacity'],
  };
}

/** `pmset -g batt`: "Now drawing from 'AC Power'", then one line per battery. Written against the documented format. */
export function parsePmsetBatt(stdout: string): { source: string | undefined; rows: string[][] } {
  const source = /Now drawing from '([^']+)'/.exec(stdout)?.[1];
  const rows: string[][] = [];
  for (const line of stdout.split('\n')) {
    const m = /^\s*-(\S+)[^\t]*\t(\d+)%;\s*([^;]+);\s*([^\n]*?)(?:\s+present: \w+)?\s*$/.exec(line);
    if (m !== null) rows.push([m[1]!, `${m[2]}%`, m[3]!.trim(), m[4]!.trim() || '-']);
  }
  return { source, rows };
}

/** macOS: `pmset -g batt`; not run on a Mac in this repository's tests. */
async function batteryMac(ctx: TopicContext): Promise<AnswerParts> {
  const { source, rows } = parsePmsetBatt((await runProbe('pmset', ['-g', 'batt'], ctx.signal)).stdout);
  const facts: Fact[] = source !== undefined ? [{ label: 'power', value: source }] : [];
  if (rows.length === 0) return { topic: 'battery', summary: 'battery: none found (pmset lists no battery)', facts };
  return {
    topic: 'battery',
    summary: `battery: ${plural(rows.length, 'battery', 'batteries')}`,
    facts,
    columns: ['NAME', 'CHARGE', 'STATUS', 'TIME'],
    rows,
  };
}

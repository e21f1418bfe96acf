/** The process table from the native library (procfs on Linux, libproc on macOS). */
import { WispError } from '../core/errors.js';
import { callNative } from './call.js';
import { num, splitRecords, unescapeField } from './records.js';

export interface NativeProcess {
  pid: number;
  ppid: number;
  /** -1 when unknown. */
  uid: number;
  /** The user's name, or '' when the uid has none. */
  user: string;
  /** procfs state letter (R, S, D, Z, ...); macOS: R, S, Z, T, I or '?'. */
  state: string;
  threads: number;
  rssBytes: number;
  /** CPU time (user + system) at the first and second sample, in nanoseconds. */
  cpuNs1: number;
  /** undefined when the process ended (or its pid was reused) during the sample. */
  cpuNs2: number | undefined;
  startEpochS: number;
  kernelThread: boolean;
  /** The executable or command line could not be read for lack of permission (not: the process is gone). */
  exeUnreadable: boolean;
  cmdlineUnreadable: boolean;
  /** The command line was longer than the library reads: later arguments are left out, whole. */
  cmdlineCut: boolean;
  /** The kernel's short name (comm on Linux, at most 15 bytes). */
  name: string;
  /** Basename of the executable, '' when unreadable. */
  exeBase: string;
  /** Basename of argv[0], '' when there is none. */
  argv0Base: string;
  /** argv joined with spaces (not yet redacted), '' when there is none. */
  cmdline: string;
}

/** The machine's CPU time by kind at one sample, in the kernel's ticks; undefined where a platform has no such count. */
export interface MachineCpu {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number | undefined;
  irq: number | undefined;
  softirq: number | undefined;
  steal: number | undefined;
}

export interface NativeProcessTable {
  /** One tick of the CPU clock, in nanoseconds: the resolution of CPU times. */
  tickNs: number;
  /** Measured time between the two samples, in nanoseconds. */
  intervalNs: number;
  nowEpochS: number;
  selfUid: number;
  /** Processes read, not read because of permissions, and gone before they could be read. */
  seen: number;
  denied: number;
  vanished: number;
  /** The machine's CPU time at the two samples; undefined when it could not be read. */
  machineCpu: [MachineCpu, MachineCpu] | undefined;
  processes: NativeProcess[];
}

export const DEFAULT_SAMPLE_MS = 500;
/** The longest command line the library reads, in bytes (whole arguments only). Must equal WISP_CMDLINE_MAX. */
export const CMDLINE_MAX_BYTES = 16_384;

export async function readProcessTable(opts: { sampleMs?: number; signal?: AbortSignal } = {}): Promise<NativeProcessTable> {
  const sampleMs = opts.sampleMs ?? DEFAULT_SAMPLE_MS;
  if (!Number.isInteger(sampleMs) || sampleMs < 0 || sampleMs > 5000) {
    throw new WispError('WISP_BAD_ARGUMENT', `sampleMs must be a whole number from 0 to 5000, got ${sampleMs}`);
  }
  const { data } = await callNative('reading the process table', (lib, token) => [lib.processes, [token, sampleMs]], opts.signal);
  return parseProcessTable(data);
}

export function parseProcessTable(data: Buffer): NativeProcessTable {
  const table: NativeProcessTable = {
    tickNs: 0, intervalNs: 0, nowEpochS: 0, selfUid: -1, seen: 0, denied: 0, vanished: 0, machineCpu: undefined, processes: [],
  };
  const samples: MachineCpu[] = [];
  for (const f of splitRecords(data)) {
    if (f[0] === 'H') {
      table.tickNs = num(f[1]);
      table.intervalNs = num(f[2]);
      table.nowEpochS = num(f[3]);
      table.selfUid = num(f[4], -1);
      table.seen = num(f[5]);
      table.denied = num(f[6]);
      table.vanished = num(f[7]);
    } else if (f[0] === 'C' && f.length >= 10) {
      const count = (i: number): number | undefined => (num(f[i], -1) < 0 ? undefined : num(f[i]));
      samples[num(f[1]) === 2 ? 1 : 0] = {
        user: num(f[2]), nice: num(f[3]), system: num(f[4]), idle: num(f[5]),
        iowait: count(6), irq: count(7), softirq: count(8), steal: count(9),
      };
    } else if (f[0] === 'P' && f.length >= 16) {
      const flags = f[11] ?? '';
      const cpu2 = num(f[9], -1);
      table.processes.push({
        pid: num(f[1]),
        ppid: num(f[2]),
        uid: num(f[3], -1),
        user: unescapeField(f[4] ?? ''),
        state: f[5] ?? '?',
        threads: num(f[6]),
        rssBytes: num(f[7]),
        cpuNs1: num(f[8]),
        cpuNs2: cpu2 < 0 ? undefined : cpu2,
        startEpochS: num(f[10]),
        kernelThread: flags.includes('k'),
        exeUnreadable: flags.includes('e'),
        cmdlineUnreadable: flags.includes('c'),
        cmdlineCut: flags.includes('t'),
        name: unescapeField(f[12] ?? ''),
        exeBase: unescapeField(f[13] ?? ''),
        argv0Base: unescapeField(f[14] ?? ''),
        cmdline: unescapeField(f[15] ?? ''),
      });
    }
  }
  if (samples[0] !== undefined && samples[1] !== undefined) table.machineCpu = [samples[0], samples[1]];
  return table;
}

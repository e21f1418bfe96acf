/**
 * The commands system_info may run: a fixed list, each read-only, run with execFile's
 * way (no shell), a timeout and an output cap. Only validated values (a real folder path)
 * are ever added to their fixed arguments.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { WispError } from '../core/errors.js';

interface ProbeSpec {
  /** Absolute paths tried in order: PATH is not consulted. */
  files: readonly string[];
  timeoutMs: number;
  maxBytes: number;
}

const PROBES = {
  du: { files: ['/usr/bin/du', '/bin/du'], timeoutMs: 30_000, maxBytes: 4 * 1024 * 1024 },
  df: { files: ['/bin/df', '/usr/bin/df'], timeoutMs: 5_000, maxBytes: 1024 * 1024 },
  // macOS only: the probes that answer there.
  sysctl: { files: ['/usr/sbin/sysctl'], timeoutMs: 5_000, maxBytes: 256 * 1024 },
  memory_pressure: { files: ['/usr/bin/memory_pressure'], timeoutMs: 5_000, maxBytes: 256 * 1024 },
  pmset: { files: ['/usr/bin/pmset'], timeoutMs: 5_000, maxBytes: 64 * 1024 },
  sw_vers: { files: ['/usr/bin/sw_vers'], timeoutMs: 5_000, maxBytes: 64 * 1024 },
  scutil: { files: ['/usr/sbin/scutil'], timeoutMs: 5_000, maxBytes: 256 * 1024 },
} satisfies Record<string, ProbeSpec>;

export type ProbeName = keyof typeof PROBES;

export interface ProbeResult {
  stdout: string;
  stderr: string;
  /** null when killed (timeout or cancel). */
  exitCode: number | null;
  timedOut: boolean;
  /** stdout reached the cap and the rest was dropped. */
  truncated: boolean;
}

export function runProbe(name: ProbeName, args: readonly string[], signal?: AbortSignal): Promise<ProbeResult> {
  const spec: ProbeSpec = PROBES[name];
  const file = spec.files.find((f) => existsSync(f));
  return new Promise((resolvePromise, reject) => {
    if (file === undefined) {
      reject(new WispError('WISP_UNREADABLE', `${name} is not installed here (looked for ${spec.files.join(', ')})`));
      return;
    }
    if (signal?.aborted) {
      reject(new WispError('WISP_CANCELLED', `${name}: cancelled`));
      return;
    }
    // LC_ALL=C: the output parsed is the same whatever the user's language.
    const child = spawn(file, args, {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, spec.timeoutMs);
    const onAbort = (): void => void child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes + b.length > spec.maxBytes) {
        out.push(b.subarray(0, spec.maxBytes - outBytes));
        outBytes = spec.maxBytes;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < 64 * 1024) err.push(b);
      errBytes += b.length;
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (e.code === 'ENOENT') reject(new WispError('WISP_UNREADABLE', `${file} is not installed here`));
      else reject(new WispError('WISP_UNREADABLE', `${file} could not run: ${e.message}`, { cause: e }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(new WispError('WISP_CANCELLED', `${name}: cancelled`));
        return;
      }
      resolvePromise({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        exitCode: code,
        timedOut,
        truncated,
      });
    });
  });
}

/** Probe timeout in seconds, for the answers that report one. */
export const probeTimeoutSeconds = (name: ProbeName): number => PROBES[name].timeoutMs / 1000;

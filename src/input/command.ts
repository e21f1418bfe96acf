import { spawn } from 'node:child_process';
import { WispError } from '../core/errors.js';

export interface CommandResult {
  argv: string[];
  /** stdout and stderr as they arrived, the tail kept when over the cap. */
  output: Buffer;
  /** Exit code, or null when a signal ended it. */
  exitStatus: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Bytes of the head dropped to stay within the cap. */
  droppedBytes: number;
}

export interface RunCommandOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  cwd?: string;
  /** The environment the command gets (default: this process's). */
  env?: Record<string, string>;
  /** What is actually started, when argv runs wrapped (inside a sandbox); argv is still what results name. */
  spawnArgv?: string[];
  /** Called once the process has started. */
  onStart?: () => void;
}

/** After a timeout's SIGTERM, how long a command gets before SIGKILL. */
export const KILL_GRACE_MS = 2000;

/**
 * Runs argv without a shell, capturing stdout and stderr together (the order a user sees),
 * bounded in time and bytes. A failed or timed-out command is a result, not an error: its
 * output is often the point. Only a command that cannot start at all throws.
 */
export function runCommand(argv: string[], options: RunCommandOptions): Promise<CommandResult> {
  if (argv[0] === undefined || argv[0] === '') throw new WispError('WISP_BAD_ARGUMENT', 'command must name a program');
  const [file, ...args] = options.spawnArgv ?? argv;
  return new Promise((resolve, reject) => {
    // A process group of its own, so that stopping it stops what it started too.
    const child = spawn(file!, args, {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let droppedBytes = 0;
    let timedOut = false;
    let settled = false;
    const take = (b: Buffer): void => {
      kept.push(b);
      keptBytes += b.length;
      while (keptBytes - kept[0]!.length >= options.maxBytes) {
        const d = kept.shift()!;
        keptBytes -= d.length;
        droppedBytes += d.length;
      }
    };
    if (options.onStart !== undefined) child.once('spawn', options.onStart);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const signalGroup = (sig: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // Already gone.
      }
    };
    const kill = (): void => {
      signalGroup('SIGTERM');
      setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = (): void => kill();
    if (options.signal?.aborted) kill();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const code = (err as NodeJS.ErrnoException).code;
      reject(new WispError('WISP_COMMAND_FAILED_TO_START', `could not run ${file}: ${code === 'ENOENT' ? 'no such program' : err.message}`, { cause: err }));
    });
    child.on('close', (exitStatus, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      let output = Buffer.concat(kept);
      if (output.length > options.maxBytes) {
        droppedBytes += output.length - options.maxBytes;
        output = output.subarray(output.length - options.maxBytes);
      }
      resolve({ argv, output, exitStatus, signal, timedOut, droppedBytes });
    });
  });
}

/**
 * The server's allowlist: an entry is an argv prefix (`git diff`). A command matches when
 * it starts with the entry; arguments after it must not be flags, so flags are allowed only
 * where the entry itself names them (`--allow-command "git diff --stat"`).
 */
export function commandAllowed(argv: string[], allow: string[][]): boolean {
  return allow.some(
    (prefix) =>
      prefix.length > 0 &&
      argv.length >= prefix.length &&
      prefix.every((p, i) => argv[i] === p) &&
      argv.slice(prefix.length).every((a) => !a.startsWith('-')),
  );
}

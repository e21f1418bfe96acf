import { spawn } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WispError } from '../core/errors.js';

/**
 * What a sandboxed command may touch: everything readable except what holds secrets,
 * nothing writable but the roots and a private temporary folder, no network unless asked.
 */
export interface SandboxPolicy {
  /** Real paths of the folders the command may write (the allowed roots). */
  writable: string[];
  /** Real paths hidden from the command: secrets, wisp's own state. */
  hidden: string[];
  network: boolean;
  cwd: string | undefined;
}

export type SandboxKind = 'bwrap' | 'sandbox-exec';

export interface Sandbox {
  kind: SandboxKind;
  /** The argv that runs `argv` inside the sandbox. */
  wrap(argv: string[], policy: SandboxPolicy, tmpDir: string | undefined): string[];
  /** Whether the command needs a fresh private temporary folder made for it (macOS). */
  needsTmpDir: boolean;
}

/** How to install the sandbox where it is missing, and how to do without it. */
export const SANDBOX_HINT =
  'install the bubblewrap package (apt-get install bubblewrap, dnf install bubblewrap) so that commands run sandboxed, or start wisp mcp with --no-sandbox to run them without a sandbox';

/** Files and folders holding secrets, under the system and a home folder; only those that exist. */
export function secretPaths(home: string, platform: NodeJS.Platform = process.platform): string[] {
  const system = platform === 'darwin' ? ['/etc/master.passwd', '/private/etc/master.passwd'] : ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-'];
  const inHome = ['.ssh', '.aws', '.config', '.gnupg', '.docker', '.kube', '.netrc', '.npmrc', '.git-credentials', '.pgpass'];
  if (platform === 'darwin') inHome.push('Library/Keychains');
  return [...system, ...inHome.map((p) => join(home, p))];
}

/** Real paths of those that exist (a sandbox cannot mount over a missing path on a read-only tree). */
export function existingRealPaths(paths: string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    try {
      if (existsSync(p)) out.add(realpathSync(p));
    } catch {
      // Unreadable: nothing to hide from a command that could not read it either.
    }
  }
  return [...out];
}

/**
 * bubblewrap's arguments. Order matters: later mounts cover earlier ones, so the private
 * /tmp comes before the roots (which may lie under /tmp), and the hidden paths come last
 * (a root that holds wisp's state dir must not show it). All capabilities are dropped:
 * root inside keeps CAP_SYS_ADMIN otherwise, and could unmount what hides a secret or
 * remount / writable (checked on Debian 12 with bwrap 0.8).
 */
export function bwrapArgs(argv: string[], policy: SandboxPolicy): string[] {
  const args = ['bwrap', '--unshare-all'];
  if (policy.network) args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  for (const dir of policy.writable) args.push('--bind', dir, dir);
  for (const p of policy.hidden) {
    // A folder becomes an empty tmpfs; a file becomes /dev/null, which cannot be opened
    // inside (the sandbox's mounts are nodev): reading it fails rather than looks empty.
    if (isDirectory(p)) args.push('--tmpfs', p);
    else args.push('--ro-bind', '/dev/null', p);
  }
  if (policy.cwd !== undefined) args.push('--chdir', policy.cwd);
  args.push('--', ...argv);
  return args;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A string in a Seatbelt profile: double quotes, backslash escapes. */
const sbString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The same rules as a macOS Seatbelt profile for `sandbox-exec -p`. In a profile the last
 * matching rule wins: allow by default, then deny writes, allow them under the roots and
 * the private temporary folder, then deny the hidden paths whatever came before.
 */
export function seatbeltProfile(policy: SandboxPolicy, tmpDir: string): string {
  const lines = ['(version 1)', '(allow default)'];
  if (!policy.network) lines.push('(deny network*)');
  lines.push('(deny file-write*)');
  const writable = [...policy.writable, tmpDir].map((d) => `(subpath ${sbString(d)})`);
  writable.push('(literal "/dev/null")', '(literal "/dev/zero")', '(literal "/dev/tty")', '(regex #"^/dev/fd/")');
  lines.push(`(allow file-write*\n  ${writable.join('\n  ')})`);
  if (policy.hidden.length > 0) {
    lines.push(`(deny file-read* file-write*\n  ${policy.hidden.map((p) => `(subpath ${sbString(p)})`).join('\n  ')})`);
  }
  return `${lines.join('\n')}\n`;
}

const BWRAP: Sandbox = { kind: 'bwrap', needsTmpDir: false, wrap: (argv, policy) => bwrapArgs(argv, policy) };
const SEATBELT: Sandbox = {
  kind: 'sandbox-exec',
  needsTmpDir: true,
  wrap: (argv, policy, tmpDir) => ['/usr/bin/sandbox-exec', '-p', seatbeltProfile(policy, tmpDir!), '--', ...argv],
};

/**
 * The sandbox this machine offers, checked by running `true` in it once: bwrap may be
 * installed where user namespaces are off (some containers), and then it cannot help.
 */
export async function findSandbox(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<Sandbox> {
  if (platform === 'darwin') {
    if (existsSync('/usr/bin/sandbox-exec')) return SEATBELT;
    throw new WispError('WISP_UNAVAILABLE', 'commands run sandboxed, and /usr/bin/sandbox-exec is missing', { hint: 'start wisp mcp with --no-sandbox to run commands without a sandbox' });
  }
  if (platform !== 'linux') {
    throw new WispError('WISP_UNAVAILABLE', `commands run sandboxed, and wisp has no sandbox for ${platform}`, { hint: 'start wisp mcp with --no-sandbox to run commands without a sandbox' });
  }
  const probe = bwrapArgs(['true'], { writable: [], hidden: [], network: false, cwd: undefined });
  const outcome = await new Promise<{ code: number | null; stderr: string; missing: boolean }>((resolve) => {
    const child = spawn(probe[0]!, probe.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: env.PATH ?? '' } });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', (err) => resolve({ code: null, stderr: err.message, missing: (err as NodeJS.ErrnoException).code === 'ENOENT' }));
    child.on('close', (code) => resolve({ code, stderr, missing: false }));
  });
  if (outcome.missing) throw new WispError('WISP_UNAVAILABLE', 'commands run inside bubblewrap (bwrap), which is not installed', { hint: SANDBOX_HINT });
  if (outcome.code !== 0) {
    const why = outcome.stderr.trim().split('\n')[0] || `exit status ${outcome.code}`;
    throw new WispError('WISP_UNAVAILABLE', `bubblewrap cannot make a sandbox here (${why})`, { hint: 'enable unprivileged user namespaces, or start wisp mcp with --no-sandbox to run commands without a sandbox' });
  }
  return BWRAP;
}

/** Variables a command gets without being named: none of them holds a secret. */
const BASE_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'TZ', 'TERM'];

/** A clean environment: the base variables and those named with --pass-env, nothing else. */
export function commandEnv(from: NodeJS.ProcessEnv, pass: string[], tmpDir: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...pass]) {
    const v = from[name];
    if (v !== undefined) env[name] = v;
  }
  env.TMPDIR = tmpDir ?? '/tmp';
  return env;
}

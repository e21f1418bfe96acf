import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WispError } from '../core/errors.js';
import { assertRegularFile } from '../input/file-kind.js';
import { isPathWithinRoots } from './path-validation.js';

/**
 * The folders a client may name paths in: the server's `--root` flags plus the client's
 * MCP roots (refreshed when the client says they changed). A path is allowed when its
 * real path (symlinks resolved) is a root or lies under one, compared as `root + sep`
 * so that `/allowed-evil` is not under `/allowed`.
 */
export class AllowedRoots {
  readonly #fixed: string[];
  #fromClient: string[] = [];
  /** Settled once the client's roots are known (or known not to come): no path is judged before. */
  readonly #ready: Promise<void>;
  #markReady!: () => void;

  private constructor(fixed: string[]) {
    this.#fixed = fixed;
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
  }

  /** Called when the client's first roots answer is in, or when it offers none. */
  markReady(): void {
    this.#markReady();
  }

  /** The roots, once the client's are known. */
  async current(): Promise<string[]> {
    await this.#ready;
    return this.list();
  }

  static async fromFlags(dirs: string[]): Promise<AllowedRoots> {
    const fixed: string[] = [];
    for (const d of dirs) {
      try {
        fixed.push(await realpath(resolve(d)));
      } catch {
        throw new WispError('WISP_BAD_ARGUMENT', `--root ${d}: no such folder`);
      }
    }
    return new AllowedRoots(fixed);
  }

  /** Replaces the client's roots (file:// URIs); unreadable ones are skipped. */
  async setClientRoots(uris: string[]): Promise<void> {
    const next: string[] = [];
    for (const uri of uris) {
      if (!uri.startsWith('file://')) continue;
      try {
        next.push(await realpath(fileURLToPath(uri)));
      } catch {
        // A root the client names but this machine lacks allows nothing.
      }
    }
    this.#fromClient = next;
  }

  list(): string[] {
    return [...new Set([...this.#fixed, ...this.#fromClient])];
  }

  /** The real path of `path` if it is inside a root; otherwise a WispError naming the roots. */
  async check(path: string): Promise<string> {
    const roots = await this.current();
    if (!isAbsolute(path)) {
      throw new WispError('WISP_PATH_NOT_ALLOWED', `path must be absolute, got '${path}'`, { hint: rootsHint(roots) });
    }
    let real: string;
    try {
      real = await realpath(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // Say "outside the roots" rather than "missing" for paths outside: no probing.
        const lexical = resolve(path);
        if (!isPathWithinRoots(lexical, roots)) {
          throw new WispError('WISP_PATH_NOT_ALLOWED', `${path} is outside the allowed roots`, { hint: rootsHint(roots) });
        }
        throw new WispError('WISP_FILE_NOT_FOUND', `${path}: no such file`, { cause: err });
      }
      throw new WispError('WISP_UNREADABLE', `${path}: ${(err as Error).message}`, { cause: err });
    }
    if (!isPathWithinRoots(real, roots)) {
      throw new WispError('WISP_PATH_NOT_ALLOWED', `${path} is outside the allowed roots`, { hint: rootsHint(roots) });
    }
    return real;
  }
}

/**
 * The real path of a regular file inside the roots. FIFOs, sockets and devices are refused
 * before anything opens them: opening a FIFO for reading waits for a writer, forever.
 */
export async function checkRegularFile(roots: AllowedRoots, path: string): Promise<string> {
  const real = await roots.check(path);
  assertRegularFile(path, await stat(real), 'a file', 'copy its content into a file, or pass short content as text');
  return real;
}

function rootsHint(roots: string[]): string {
  return roots.length === 0
    ? 'no roots are allowed: start the server with --root DIR or let the client share its roots'
    : `allowed roots: ${roots.join(', ')}`;
}

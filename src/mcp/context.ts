import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { isWispError, WispError } from '../core/errors.js';
import { WorkerPool, defaultThreadCount } from '../pipeline/worker-pool.js';
import { findSandbox, type Sandbox } from '../input/sandbox.js';
import type { AuditLog } from './audit-log.js';
import type { RawStore } from './raw-store.js';
import type { AllowedRoots } from './roots.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ServerLimits {
  /** Every call ends by then, whether or not the client cancels. */
  deadlineMs: number;
  commandTimeoutMs: number;
  commandMaxBytes: number;
  /** Inline `text` sources, in characters. */
  maxTextChars: number;
  /** A condensing result's structuredContent, as JSON, in bytes (the text inside it included). */
  resultMaxBytes: number;
  /** A grep_raw answer's structuredContent, as JSON, in bytes. */
  grepMaxBytes: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  deadlineMs: 120_000,
  commandTimeoutMs: 30_000,
  commandMaxBytes: 8 * 1024 * 1024,
  maxTextChars: 1_000_000,
  resultMaxBytes: 12 * 1024,
  grepMaxBytes: 16 * 1024,
};

/** How commands may run: which without asking, and inside what. */
export interface CommandPolicy {
  /** Argv prefixes allowed without asking (`['git', 'diff']`). */
  allow: string[][];
  /** False with --no-sandbox: commands run unconfined. */
  sandbox: boolean;
  /** Whether sandboxed commands may reach the network. */
  allowNetwork: boolean;
  /** Environment variables passed to commands besides the base few. */
  passEnv: string[];
}

/** One call's signal, and the end of its deadline's timer: call `end()` when the call is answered. */
export interface CallSignal {
  readonly signal: AbortSignal;
  end(): void;
}

/** What every tool handler shares: one per server. */
export class ServerContext {
  readonly server: McpServer;
  readonly roots: AllowedRoots;
  readonly store: RawStore;
  readonly audit: AuditLog;
  readonly commands: CommandPolicy;
  readonly limits: ServerLimits;
  /** Hidden from commands, like the secrets: the payloads and the audit log. */
  readonly stateDir: string;
  readonly #closing = new AbortController();
  #pool: Promise<WorkerPool> | undefined;
  #sandbox: Promise<Sandbox> | undefined;
  /** Commands still running: close() waits for them to be gone. */
  readonly #commands = new Set<Promise<unknown>>();

  constructor(init: { server: McpServer; roots: AllowedRoots; store: RawStore; audit: AuditLog; commands: CommandPolicy; limits: ServerLimits; stateDir: string }) {
    this.server = init.server;
    this.roots = init.roots;
    this.store = init.store;
    this.audit = init.audit;
    this.commands = init.commands;
    this.limits = init.limits;
    this.stateDir = init.stateDir;
  }

  /** The machine's sandbox, looked for once; a WISP_UNAVAILABLE error where there is none. */
  sandbox(): Promise<Sandbox> {
    this.#sandbox ??= findSandbox();
    return this.#sandbox;
  }

  /** The worker pool, started on first use and kept warm for the next call. */
  pool(): Promise<WorkerPool> {
    this.#pool ??= WorkerPool.start(defaultThreadCount());
    return this.#pool;
  }

  /**
   * A running command, for close() to wait on. Its promise settles once the command's
   * output pipes are closed, that is once every process holding them has exited.
   */
  track<T>(running: Promise<T>): Promise<T> {
    this.#commands.add(running);
    const untrack = (): void => void this.#commands.delete(running);
    running.then(untrack, untrack);
    return running;
  }

  /**
   * Stops every call still running and waits until their commands' process groups are gone
   * (the shutdown signal kills them: runCommand), then stops the threads and the store. So
   * no command outlives the server.
   */
  async close(): Promise<void> {
    this.#closing.abort(new WispError('WISP_CANCELLED', 'the server is shutting down'));
    // A command that starts meanwhile sees the signal already fired, is killed at once, and joins the set.
    while (this.#commands.size > 0) await Promise.allSettled([...this.#commands]);
    this.store.close();
    if (this.#pool !== undefined) await (await this.#pool).close();
  }

  /**
   * A call's signal: the client's cancellation, the server's own deadline and its shutdown, as
   * one. The deadline is a timer of our own, not AbortSignal.timeout inside AbortSignal.any:
   * node 20 holds such a timeout signal weakly, so a garbage collection during the call lost
   * the deadline and a stuck command ran on to its own 30 s limit. `end()` stops the timer.
   */
  beginCall(extra: ToolExtra): CallSignal {
    const controller = new AbortController();
    const sources = [extra.signal, this.#closing.signal];
    const onAbort = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
    const timer = setTimeout(() => controller.abort(deadlineError(this.limits.deadlineMs)), this.limits.deadlineMs);
    const end = (): void => {
      clearTimeout(timer);
      for (const source of sources) source.removeEventListener('abort', onAbort);
    };
    for (const source of sources) {
      if (source.aborted) controller.abort(source.reason);
      else source.addEventListener('abort', onAbort, { once: true });
    }
    // Whichever fires first ends the others' hold on the call.
    controller.signal.addEventListener('abort', end, { once: true });
    if (controller.signal.aborted) end();
    return { signal: controller.signal, end };
  }

  /**
   * `work`, or an error as soon as `signal` fires: a call ends by its deadline even if what
   * it waits for never does (a read stuck in the kernel cannot be interrupted).
   */
  bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal));
      if (signal.aborted) {
        // The work sees the same signal and fails with it, after this call has answered: its
        // failure is expected, and left unheard it would end the server (a client that
        // cancelled a call within a millisecond of sending it stopped the server).
        work.catch(() => undefined);
        return onAbort();
      }
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}

/** Why a call's signal fired, as the error the model reads. */
export function abortError(signal: AbortSignal): WispError {
  const reason: unknown = signal.reason;
  if (reason instanceof WispError) return reason;
  return new WispError('WISP_CANCELLED', 'the call was cancelled by the client');
}

function deadlineError(deadlineMs: number): WispError {
  return new WispError('WISP_DEADLINE', `the call was stopped at the server's deadline of ${Math.round(deadlineMs / 1000)} s`, {
    hint: 'ask for less (a narrower source, a plainer pattern), or start the server with a longer --deadline',
  });
}

/** A tool error as the model sees it: what went wrong, its code, and what to do. */
export function toolError(err: unknown): { isError: true; content: { type: 'text'; text: string }[] } {
  const text = isWispError(err)
    ? `${err.code}: ${err.message}${err.hint ? `. ${err.hint}` : ''}`
    : `WISP_INTERNAL: ${(err as Error)?.message ?? String(err)}`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Progress notifications for a call whose request carries a progress token: throttled,
 * with a heartbeat so a long call is never silent for more than ~15 s.
 */
export function progressReporter(extra: ToolExtra): { report: (done: number, total: number | undefined, message: string) => void; stop: () => void } {
  const token = extra._meta?.progressToken;
  if (token === undefined) return { report: () => {}, stop: () => {} };
  let last = { done: 0, total: undefined as number | undefined, message: 'starting' };
  let lastSent = 0;
  const send = (): void => {
    lastSent = Date.now();
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: last.done, ...(last.total !== undefined ? { total: last.total } : {}), message: last.message },
      })
      .catch(() => {});
  };
  const heartbeat = setInterval(() => {
    if (Date.now() - lastSent >= 14_000) send();
  }, 15_000);
  heartbeat.unref();
  return {
    report(done, total, message) {
      last = { done, total, message };
      if (Date.now() - lastSent >= 250) send();
    },
    stop() {
      clearInterval(heartbeat);
    },
  };
}

export const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)}`;

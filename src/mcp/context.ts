import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { isWispError } from '../errors.js';
import { WorkerPool, defaultThreadCount } from '../pool/worker-pool.js';
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
}

export const DEFAULT_LIMITS: ServerLimits = {
  deadlineMs: 120_000,
  commandTimeoutMs: 30_000,
  commandMaxBytes: 8 * 1024 * 1024,
  maxTextChars: 1_000_000,
};

/** What every tool handler shares: one per server. */
export class ServerContext {
  readonly server: McpServer;
  readonly roots: AllowedRoots;
  readonly store: RawStore;
  readonly audit: AuditLog;
  readonly allowCommands: string[][];
  readonly limits: ServerLimits;
  #pool: Promise<WorkerPool> | undefined;

  constructor(init: { server: McpServer; roots: AllowedRoots; store: RawStore; audit: AuditLog; allowCommands: string[][]; limits: ServerLimits }) {
    this.server = init.server;
    this.roots = init.roots;
    this.store = init.store;
    this.audit = init.audit;
    this.allowCommands = init.allowCommands;
    this.limits = init.limits;
  }

  /** The worker pool, started on first use and kept warm for the next call. */
  pool(): Promise<WorkerPool> {
    this.#pool ??= WorkerPool.start(defaultThreadCount());
    return this.#pool;
  }

  async close(): Promise<void> {
    if (this.#pool !== undefined) await (await this.#pool).close();
  }

  /** The client's cancellation and the server's own deadline, as one signal. */
  callSignal(extra: ToolExtra): AbortSignal {
    return AbortSignal.any([extra.signal, AbortSignal.timeout(this.limits.deadlineMs)]);
  }
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

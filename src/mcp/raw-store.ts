import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WispError } from '../errors.js';

/** One kept payload: exactly the bytes a condenser read, behind a handle. */
export interface RawPayload {
  handle: string;
  /** What it came from, for messages: a path, `command: git diff`, `text`. */
  source: string;
  bytes: number;
  lines: number;
  created: number;
  file: string;
}

export interface RawStoreLimits {
  /** Total bytes kept; the oldest payloads go first past it. */
  maxBytes: number;
  maxCount: number;
  maxAgeMs: number;
}

export const DEFAULT_RAW_LIMITS: RawStoreLimits = {
  maxBytes: 512 * 1024 * 1024,
  maxCount: 100,
  maxAgeMs: 24 * 60 * 60 * 1000,
};

/** How many evicted handles are remembered, to tell "evicted" from "never existed". */
const REMEMBER_EVICTED = 10_000;

/**
 * Keeps raw payloads on disk under the server's state directory, bounded by total size,
 * count and age. Handles are content hashes: the same bytes get the same handle, so a
 * result stays byte-identical across calls, and a repeated call stores nothing new.
 */
export class RawStore {
  readonly limits: RawStoreLimits;
  readonly #dir: string;
  readonly #payloads = new Map<string, RawPayload>();
  readonly #evicted = new Map<string, string>();
  #bytes = 0;
  #seq = 0;

  constructor(dir: string, limits: Partial<RawStoreLimits> = {}) {
    this.limits = { ...DEFAULT_RAW_LIMITS, ...limits };
    this.#dir = dir;
    // Payloads of an earlier server are not indexed: start empty rather than leak disk.
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  /** Starts a payload; bytes are written as they are read. */
  begin(source: string): RawWriter {
    return new RawWriter(this, source, join(this.#dir, `incoming-${process.pid}-${++this.#seq}`));
  }

  /** Called by RawWriter.finish: files the payload under its content hash and evicts. */
  commit(source: string, tmp: string, hash: string, bytes: number, lines: number): RawPayload {
    const handle = `raw_${hash.slice(0, 20)}`;
    const existing = this.#payloads.get(handle);
    if (existing !== undefined) {
      rmSync(tmp, { force: true });
      // Refreshed: a handle just handed out again must not be the next to go.
      this.#payloads.delete(handle);
      existing.created = Date.now();
      this.#payloads.set(handle, existing);
      return existing;
    }
    const file = join(this.#dir, handle);
    renameSync(tmp, file);
    const payload: RawPayload = { handle, source, bytes, lines, created: Date.now(), file };
    this.#payloads.set(handle, payload);
    this.#evicted.delete(handle);
    this.#bytes += bytes;
    this.#evict(handle);
    return payload;
  }

  get(handle: string): RawPayload {
    this.#evict();
    const p = this.#payloads.get(handle);
    if (p !== undefined) return p;
    const why = this.#evicted.get(handle);
    if (why !== undefined) {
      throw new WispError(
        'WISP_HANDLE_EVICTED',
        `raw payload ${handle} was evicted (${why}); the store keeps at most ${this.limits.maxCount} payloads, ${Math.round(this.limits.maxBytes / 1048576)} MB, for ${Math.round(this.limits.maxAgeMs / 3600000)} h`,
        'run the condensing call again to get a new handle',
      );
    }
    throw new WispError('WISP_UNKNOWN_HANDLE', `no raw payload has the handle ${handle}`, 'use the handle from a condense_log or json_shape result of this server');
  }

  /** Kept payloads, oldest first. */
  list(): RawPayload[] {
    this.#evict();
    return [...this.#payloads.values()];
  }

  stats(): { payloads: number; bytes: number } {
    return { payloads: this.#payloads.size, bytes: this.#bytes };
  }

  /** Oldest first (Map order is insertion order), keeping `keep` whatever happens. */
  #evict(keep?: string): void {
    const now = Date.now();
    for (const [handle, p] of this.#payloads) {
      if (handle === keep) continue;
      let why: string | undefined;
      if (now - p.created > this.limits.maxAgeMs) why = 'older than the age limit';
      else if (this.#payloads.size > this.limits.maxCount) why = 'the count limit was reached';
      else if (this.#bytes > this.limits.maxBytes) why = 'the size limit was reached';
      if (why === undefined) continue;
      this.#payloads.delete(handle);
      this.#bytes -= p.bytes;
      rmSync(p.file, { force: true });
      this.#evicted.set(handle, why);
      if (this.#evicted.size > REMEMBER_EVICTED) this.#evicted.delete(this.#evicted.keys().next().value!);
    }
  }
}

/** Writes a payload synchronously as chunks arrive (before they are transferred away). */
export class RawWriter {
  readonly #store: RawStore;
  readonly #source: string;
  readonly #tmp: string;
  readonly #fd: number;
  readonly #hash = createHash('sha256');
  #bytes = 0;
  #lines = 0;
  #lastByte = 10;

  constructor(store: RawStore, source: string, tmp: string) {
    this.#store = store;
    this.#source = source;
    this.#tmp = tmp;
    this.#fd = openSync(tmp, 'w');
  }

  write(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    writeSync(this.#fd, chunk);
    this.#hash.update(chunk);
    this.#bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.#lines++;
    this.#lastByte = chunk[chunk.length - 1]!;
  }

  finish(): RawPayload {
    closeSync(this.#fd);
    const lines = this.#lines + (this.#lastByte === 10 ? 0 : 1);
    return this.#store.commit(this.#source, this.#tmp, this.#hash.digest('hex'), this.#bytes, lines);
  }

  abandon(): void {
    closeSync(this.#fd);
    rmSync(this.#tmp, { force: true });
  }
}

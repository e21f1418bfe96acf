import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { WispError } from '../core/errors.js';

/** Where the stored bytes came from, so that an answer can say how to search what was not stored. */
export type PayloadOrigin = { kind: 'file'; path: string } | { kind: 'command'; argv: string[] } | { kind: 'journal' } | { kind: 'text' };

/** One kept payload: exactly the bytes a condenser read, behind a handle. */
export interface RawPayload {
  handle: string;
  /** What it came from, for messages: a path, `command: git diff`, `text`. */
  source: string;
  bytes: number;
  lines: number;
  /** Bytes before the stored part that were read past and not stored (the 8 MiB cap keeps the tail). */
  notStoredBytes: number;
  origin: PayloadOrigin;
  /** When this server last handed it out. */
  created: number;
  file: string;
}

/** What a condenser knows about a payload besides its bytes. */
export interface PayloadInfo {
  notStoredBytes: number;
  origin: PayloadOrigin;
}

type PayloadMeta = Omit<RawPayload, 'created' | 'file'>;

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
const HANDLE = /^raw_[0-9a-f]{20}$/;

/**
 * Keeps raw payloads on disk under the state directory, bounded by total size, count and
 * age. Handles are content hashes: the same bytes get the same handle, so a result stays
 * byte-identical across calls, and a repeated call stores nothing new.
 *
 * Several servers may share one directory (two sessions, two clients on the default dir).
 * Each server marks the payloads it has handed out with a reference file named by its
 * server id (pid first), and removes a payload only when no live server references it:
 *
 *   DIR/raw_<hash>              the bytes (0600; DIR is 0700)
 *   DIR/raw_<hash>.json         source, size, origin
 *   DIR/refs/raw_<hash>/<id>    one empty file per server that handed it out
 *
 * A payload appears by rename after its reference is written, and goes by rename before
 * the references are checked a second time, so a server that hands it out at the same
 * moment as another removes it either sees it removed or gets it put back.
 */
export class RawStore {
  readonly limits: RawStoreLimits;
  /** This server's name in reference files: its pid, so that others can tell it is alive. */
  readonly serverId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly #dir: string;
  readonly #payloads = new Map<string, RawPayload>();
  readonly #evicted = new Map<string, string>();
  #bytes = 0;
  #seq = 0;

  constructor(dir: string, limits: Partial<RawStoreLimits> = {}) {
    this.limits = { ...DEFAULT_RAW_LIMITS, ...limits };
    this.#dir = dir;
    privateDir(dir);
    privateDir(join(dir, 'refs'));
    // Payloads of servers that are gone stay for a restarted server to find (the handles
    // are still in the conversation); only those past the limits are removed.
    this.#collectUnreferenced();
  }

  /** Starts a payload; bytes are written as they are read. */
  begin(source: string): RawWriter {
    return new RawWriter(this, source, join(this.#dir, `incoming-${this.serverId}-${++this.#seq}`));
  }

  /** Called by RawWriter.finish: files the payload under its content hash and evicts. */
  commit(source: string, tmp: string, hash: string, bytes: number, lines: number, info: PayloadInfo): RawPayload {
    const handle = `raw_${hash.slice(0, 20)}`;
    const file = join(this.#dir, handle);
    this.#writeRef(handle);
    const meta: PayloadMeta = { handle, source, bytes, lines, notStoredBytes: info.notStoredBytes, origin: info.origin };
    atomicWrite(`${file}.json`, `${JSON.stringify(meta)}\n`, join(this.#dir, `incoming-${this.serverId}-${++this.#seq}.json`));
    renameSync(tmp, file);
    const existing = this.#payloads.get(handle);
    if (existing !== undefined) {
      // Refreshed: a handle just handed out again must not be the next to go.
      this.#payloads.delete(handle);
      this.#bytes -= existing.bytes;
    }
    const payload: RawPayload = { ...meta, created: Date.now(), file };
    this.#payloads.set(handle, payload);
    this.#evicted.delete(handle);
    this.#bytes += bytes;
    this.#evict(handle);
    return payload;
  }

  get(handle: string): RawPayload {
    this.#evict();
    const p = this.#payloads.get(handle) ?? this.#adopt(handle);
    if (p !== undefined) return p;
    const why = this.#evicted.get(handle);
    if (why !== undefined) {
      throw new WispError(
        'WISP_HANDLE_EVICTED',
        `raw payload ${handle} was evicted (${why}); the store keeps at most ${this.limits.maxCount} payloads, ${Math.round(this.limits.maxBytes / 1048576)} MB, for ${Math.round(this.limits.maxAgeMs / 3600000)} h`,
        { hint: 'run the condensing call again to get a new handle' },
      );
    }
    throw new WispError('WISP_UNKNOWN_HANDLE', `no raw payload has the handle ${handle}`, { hint: 'use the handle from a condense_log, json_shape or run_and_condense result' });
  }

  /** Kept payloads, oldest first. */
  list(): RawPayload[] {
    this.#evict();
    return [...this.#payloads.values()];
  }

  stats(): { payloads: number; bytes: number } {
    return { payloads: this.#payloads.size, bytes: this.#bytes };
  }

  /** Drops this server's references; the payloads stay for others and for a restart. */
  close(): void {
    for (const handle of this.#payloads.keys()) rmSync(this.#refFile(handle), { force: true });
    this.#payloads.clear();
    this.#bytes = 0;
  }

  /** A payload on disk that another (or an earlier) server stored: referenced and served. */
  #adopt(handle: string): RawPayload | undefined {
    if (!HANDLE.test(handle)) return undefined;
    const file = join(this.#dir, handle);
    let meta: PayloadMeta;
    try {
      meta = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as PayloadMeta;
    } catch {
      return undefined;
    }
    this.#writeRef(handle);
    try {
      statSync(file);
    } catch {
      rmSync(this.#refFile(handle), { force: true });
      return undefined;
    }
    const payload: RawPayload = { ...meta, handle, created: Date.now(), file };
    this.#payloads.set(handle, payload);
    this.#evicted.delete(handle);
    this.#bytes += payload.bytes;
    this.#evict(handle);
    return payload;
  }

  #refFile(handle: string): string {
    return join(this.#dir, 'refs', handle, this.serverId);
  }

  /**
   * This server's reference to `handle`. Another server removing the payload takes its
   * references' folder away once it is empty (#remove), between our making the folder and
   * the file: then both are made again (it removed what it saw unreferenced; the caller
   * stores or checks the payload after this).
   */
  #writeRef(handle: string): void {
    for (let attempt = 1; ; attempt++) {
      try {
        privateDir(join(this.#dir, 'refs', handle));
        closeSync(openSync(this.#refFile(handle), 'w', 0o600));
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= MAX_REF_ATTEMPTS) throw err;
      }
    }
  }

  /** References by live servers other than this one; stale ones (their server is gone) are removed. */
  #liveRefs(handle: string): number {
    const dir = join(this.#dir, 'refs', handle);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return 0;
    }
    let live = 0;
    for (const name of names) {
      if (name === this.serverId) continue;
      if (serverAlive(name)) live++;
      else rmSync(join(dir, name), { force: true });
    }
    return live;
  }

  /** Removes a payload unless a live server still references it. */
  #remove(handle: string): void {
    if (this.#liveRefs(handle) > 0) return;
    const file = join(this.#dir, handle);
    const away = join(this.#dir, `removing-${this.serverId}-${handle}`);
    try {
      renameSync(file, away);
    } catch {
      return;
    }
    if (this.#liveRefs(handle) > 0) {
      // Handed out by another server meanwhile: put it back (unless it was stored again).
      try {
        linkSync(away, file);
      } catch {
        // Stored again meanwhile: the new copy holds the same bytes.
      }
      unlinkSync(away);
      return;
    }
    unlinkSync(away);
    rmSync(`${file}.json`, { force: true });
    try {
      rmdirSync(join(this.#dir, 'refs', handle));
    } catch {
      // A reference arrived after all; its server stores the payload again.
    }
  }

  /** Oldest first (Map order is insertion order), keeping `keep` whatever happens. */
  #evict(keep?: string): void {
    const now = Date.now();
    let removed = false;
    for (const [handle, p] of this.#payloads) {
      if (handle === keep) continue;
      let why: string | undefined;
      if (now - p.created > this.limits.maxAgeMs) why = 'older than the age limit';
      else if (this.#payloads.size > this.limits.maxCount) why = 'the count limit was reached';
      else if (this.#bytes > this.limits.maxBytes) why = 'the size limit was reached';
      if (why === undefined) continue;
      this.#payloads.delete(handle);
      this.#bytes -= p.bytes;
      rmSync(this.#refFile(handle), { force: true });
      this.#remove(handle);
      removed = true;
      this.#evicted.set(handle, why);
      if (this.#evicted.size > REMEMBER_EVICTED) this.#evicted.delete(this.#evicted.keys().next().value!);
    }
    if (removed) this.#collectUnreferenced();
  }

  /**
   * Payloads no live server references (their servers ended or crashed): removed past the
   * age limit, and oldest first while together they exceed the count or size limit.
   */
  #collectUnreferenced(): void {
    const now = Date.now();
    const orphans: { handle: string; bytes: number; mtime: number }[] = [];
    const names = readdirSync(this.#dir);
    const present = new Set(names);
    for (const name of names) {
      // Left by a server that died while writing or removing.
      const temporary = /^(?:incoming|removing)-(.*)$/.exec(name);
      if (temporary !== null) {
        if (!serverAlive(temporary[1]!)) rmSync(join(this.#dir, name), { force: true });
        continue;
      }
      if (name.endsWith('.json') && !present.has(name.slice(0, -5)) && HANDLE.test(name.slice(0, -5)) && this.#liveRefs(name.slice(0, -5)) === 0) {
        rmSync(join(this.#dir, name), { force: true });
        continue;
      }
      if (!HANDLE.test(name) || this.#payloads.has(name) || this.#liveRefs(name) > 0) continue;
      try {
        const st = statSync(join(this.#dir, name));
        orphans.push({ handle: name, bytes: st.size, mtime: st.mtimeMs });
      } catch {
        // Removed meanwhile.
      }
    }
    orphans.sort((a, b) => a.mtime - b.mtime || (a.handle < b.handle ? -1 : 1));
    let bytes = orphans.reduce((n, o) => n + o.bytes, 0);
    let count = orphans.length;
    for (const o of orphans) {
      if (now - o.mtime <= this.limits.maxAgeMs && count <= this.limits.maxCount && bytes <= this.limits.maxBytes) continue;
      this.#remove(o.handle);
      bytes -= o.bytes;
      count--;
    }
  }
}

/** A server id starts with its pid; the server is alive while that process is. */
function serverAlive(id: string): boolean {
  const pid = Number(/^(\d+)-/.exec(id)?.[1]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Tries at writing a reference while other servers remove its folder: each removal needs a payload of theirs evicted. */
const MAX_REF_ATTEMPTS = 8;

/** A folder only its owner can enter, whatever an earlier version left. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

function atomicWrite(file: string, text: string, tmp: string): void {
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
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
    this.#fd = openSync(tmp, 'wx', 0o600);
  }

  write(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    writeSync(this.#fd, chunk);
    this.#hash.update(chunk);
    this.#bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.#lines++;
    this.#lastByte = chunk[chunk.length - 1]!;
  }

  finish(info: PayloadInfo): RawPayload {
    closeSync(this.#fd);
    const lines = this.#bytes === 0 ? 0 : this.#lines + (this.#lastByte === 10 ? 0 : 1);
    return this.#store.commit(this.#source, this.#tmp, this.#hash.digest('hex'), this.#bytes, lines, info);
  }

  abandon(): void {
    closeSync(this.#fd);
    rmSync(this.#tmp, { force: true });
  }
}

import { WispError } from '../core/errors.js';

export interface ClusterTarget {
  /** ioredis connection options, from a redis:// URL. */
  connection: { host: string; port: number; db: number; username?: string; password?: string; maxRetriesPerRequest: null };
  queue: string;
}

/** `redis://[user:pass@]host:port[/db]`, checked up front with a message that names it. */
export function clusterTarget(url: string | undefined, queue: string | undefined): ClusterTarget {
  if (url === undefined) throw new WispError('WISP_BAD_ARGUMENT', '--redis URL is required, e.g. --redis redis://127.0.0.1:6379');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new WispError('WISP_BAD_ARGUMENT', `--redis takes a redis:// URL, got '${url}'`);
  }
  if (u.protocol !== 'redis:') throw new WispError('WISP_BAD_ARGUMENT', `--redis takes a redis:// URL, got '${url}'`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new WispError('WISP_BAD_ARGUMENT', `--redis: database must be a number, got '${u.pathname.slice(1)}'`);
  const name = queue ?? 'wisp';
  if (!/^[\w.-]{1,64}$/.test(name)) throw new WispError('WISP_BAD_ARGUMENT', `--queue is 1 to 64 letters, digits, '.', '_' or '-', got '${name}'`);
  return {
    // BullMQ's workers block on Redis: ioredis must retry forever rather than fail a command.
    connection: {
      host: u.hostname || '127.0.0.1',
      port: u.port === '' ? 6379 : Number(u.port),
      db,
      ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
      ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
      maxRetriesPerRequest: null,
    },
    queue: name,
  };
}

/** Job ids sort in archive order: collect merges partials in that order. */
export const jobId = (index: number): string => `input-${String(index).padStart(7, '0')}`;
/** Where enqueue records how many jobs a run has. */
export const runKey = (queue: string): string => `wisp:cluster:${queue}:inputs`;

export interface ClusterJob {
  index: number;
  path: string;
}

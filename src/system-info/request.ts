/**
 * system_info's arguments, validated before anything runs. Errors are WISP_BAD_ARGUMENT
 * with a message that says how to retry (the model that calls the tool follows it).
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { WispError } from '../core/errors.js';

export const TOPICS = ['ports', 'freeSpace', 'folderSizes', 'processes', 'memory', 'process', 'battery', 'system', 'network'] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * As a caller gives it. What was not given is undefined; an MCP client may also send an
 * empty process or path for a topic that takes none.
 */
export interface SystemInfoRequest {
  topic: string;
  port?: number | string;
  process?: string;
  path?: string;
}

export type ProcessTarget = { pid: number } | { name: string };

export type ValidRequest =
  | { topic: 'ports'; port: number | undefined }
  | { topic: 'process'; target: ProcessTarget }
  | { topic: 'folderSizes'; path: string }
  | { topic: Exclude<Topic, 'ports' | 'process' | 'folderSizes'> };

/** Linux's pid_max can be at most 2^22. */
const MAX_PID = 4_194_304;
const MAX_NAME_CHARS = 256;

const bad = (message: string, hint?: string): WispError => new WispError('WISP_BAD_ARGUMENT', message, { hint: hint });

export function parseTopic(topic: unknown): Topic {
  if (typeof topic !== 'string' || topic.trim() === '') {
    throw bad(`a topic is required: one of ${TOPICS.join(', ')}`);
  }
  const wanted = topic.trim().toLowerCase();
  const found = TOPICS.find((t) => t.toLowerCase() === wanted);
  if (found === undefined) throw bad(`unknown topic '${topic}': use one of ${TOPICS.join(', ')}`);
  return found;
}

/** A port: a whole number from 1 to 65535 (a string of digits is accepted; an empty one is not). */
export function parsePort(port: number | string): number {
  const n = typeof port === 'number' ? port : /^\s*\d{1,5}\s*$/.test(port) ? Number(port) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw bad(`a port is a whole number from 1 to 65535, got ${JSON.stringify(port)}`);
  }
  return n;
}

/**
 * A pid (digits) or a process name, matched exactly later; never a path or a pattern. A
 * name may hold `/` (kernel threads: ksoftirqd/0, kworker/0:1H); one that starts like a
 * path (`/`, `./`, `../`) is refused with the name to give instead.
 */
export function parseProcessTarget(value: string): ProcessTarget {
  const v = value.trim();
  if (v === '') {
    throw bad('topic process needs the process: a name such as ollama or a pid such as 1234', 'call again with process set');
  }
  if (/^\d+$/.test(v)) {
    const pid = Number(v);
    if (pid < 1 || pid > MAX_PID) throw bad(`a pid is a whole number from 1 to ${MAX_PID}, got ${v}`);
    return { pid };
  }
  if (v.length > MAX_NAME_CHARS || /[\u0000-\u001f\u007f]/.test(v)) {
    throw bad(`a process name is 1 to ${MAX_NAME_CHARS} printable characters`);
  }
  if (/^\.{0,2}\//.test(v)) throw bad(`give the program's name, not a path: '${v}'`, `e.g. ${v.split('/').pop() || 'node'}`);
  // A value that reads as a flag is refused wherever a value is expected (no flag injection).
  if (v.startsWith('-')) throw bad(`a process name cannot start with '-': '${v}'`);
  return { name: v };
}

/**
 * A folder that exists; returned as its real absolute path (du does not follow a symlink
 * it is given). `~` and `~/...` name the home folder, as a shell would have expanded them
 * (a caller that is not a shell, or a quoted argument, passes them through as is).
 */
export async function parseFolder(path: string): Promise<string> {
  if (path.trim() === '' || path.includes('\u0000')) throw bad('topic folderSizes needs a path to an existing folder');
  if (path.startsWith('-')) throw bad(`a folder path cannot start with '-': '${path}'`, 'give ./' + path);
  if (/^~[^/]/.test(path)) throw bad(`~user is not expanded: give the folder's full path, not '${path}'`);
  const absolute = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : resolve(path);
  let info: Stats;
  try {
    info = await stat(absolute);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw bad(`no such folder: ${path}`);
    throw bad(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (!info.isDirectory()) throw bad(`${path} is not a folder`, 'give the folder that holds it');
  return realpath(absolute);
}

/** Checks a request whole: its topic, the argument it needs, and none it does not take. */
export async function validateRequest(req: SystemInfoRequest): Promise<ValidRequest> {
  if (req === null || typeof req !== 'object') throw bad('a request is an object with a topic');
  const topic = parseTopic(req.topic);
  const given = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
  // An empty process or path is a client's "not given"; a port is a number there, so
  // an empty port can only be a caller's mistake (`--port ""`), never "all ports".
  const portGiven = req.port !== undefined && req.port !== null;
  const refuse = (arg: string, takes: string): WispError =>
    bad(`topic ${topic} takes no ${arg}${takes}`, `leave ${arg} empty for ${topic}`);
  if (req.port !== undefined && typeof req.port !== 'number' && typeof req.port !== 'string') throw bad('port must be a number');
  if (req.process !== undefined && typeof req.process !== 'string') throw bad('process must be a string');
  if (req.path !== undefined && typeof req.path !== 'string') throw bad('path must be a string');
  if (portGiven && topic !== 'ports') throw refuse('port', ' (only ports does)');
  if (given(req.process) && topic !== 'process') throw refuse('process', ' (only process does)');
  if (given(req.path) && topic !== 'folderSizes') throw refuse('path', ' (only folderSizes does)');
  switch (topic) {
    case 'ports':
      return { topic, port: portGiven ? parsePort(req.port as number | string) : undefined };
    case 'process':
      return { topic, target: parseProcessTarget(req.process ?? '') };
    case 'folderSizes':
      return { topic, path: await parseFolder(req.path ?? '') };
    default:
      return { topic };
  }
}

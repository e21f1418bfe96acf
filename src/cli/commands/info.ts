/**
 * `wisp info TOPIC [--port N] [--process NAME|PID] [--path DIR] [--json]`: system_info
 * from the command line. Arguments are validated before any probe runs.
 */
import { WispError } from '../../core/errors.js';
import { systemInfo, TOPICS } from '../../system-info/index.js';
import { parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const INFO_USAGE = 'wisp info TOPIC [--port N] [--process NAME|PID] [--path DIR] [--json]';
/** The line for `wisp --help`. */
export const INFO_SUMMARY = `facts about this machine: ${INFO_USAGE}`;

const HELP = `usage: ${INFO_USAGE}

topics:
  ports        listening TCP and UDP sockets and their processes (--port N for one port)
  freeSpace    each filesystem's size, use and what is still available
  folderSizes  the folders inside --path DIR, largest first (du, at most 30 s)
  processes    the busiest processes by CPU over 0.5 s, then by memory
  memory       total, used, available, and the largest processes
  process      one program by --process NAME (exact, with its children) or PID
  battery      charge, status and time left, or that there is none
  system       OS, kernel, uptime, load, CPUs, container
  network      interfaces, addresses, default route, DNS

Answers are at most 15 rows and 4 KiB, say what could not be seen, and redact command lines.
`;

const VALUE_OPTIONS = ['--port', '--process', '--path'];
const FLAGS = new Set([...VALUE_OPTIONS, '--json', '--help', '-h']);

/**
 * `--port -1` as `--port=-1`: node's parser would refuse a value that starts with '-' as
 * "ambiguous", and the caller would never hear what is wrong with the value itself. A
 * value that is one of this command's own options is left alone (a missing value).
 */
export function attachDashValues(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (VALUE_OPTIONS.includes(arg) && next?.startsWith('-') === true && !FLAGS.has(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export const runInfo: CommandRunner = async (args, io) => {
  const parsed = parseCommandLine(attachDashValues(args), {
    port: { type: 'string' },
    process: { type: 'string' },
    path: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, INFO_USAGE);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new WispError(
      'WISP_BAD_ARGUMENT',
      positionals.length === 0 ? `name one topic: ${TOPICS.join(', ')}` : `one topic at a time, got ${positionals.length}: ${positionals.join(' ')}`,
      { hint: `usage: ${INFO_USAGE}` },
    );
  }
  const answer = await systemInfo({
    topic: positionals[0]!,
    port: values.port,
    process: values.process,
    path: values.path,
  });
  io.stdout.write(values.json ? `${JSON.stringify(answer, null, 2)}\n` : answer.text);
  return 0;
};

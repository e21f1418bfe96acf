import { exitCodeFor, isWispError } from '../core/errors.js';
import { WISP_VERSION } from '../core/version.js';
import type { CliIo, CommandRunner } from './io.js';
import { watchOutput, writeFailed } from './output.js';

/** Each command lives in its own module, loaded only when it is asked for. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandRunner> }> = {
  log: {
    summary: 'condense logs, archives, the system log: wisp log [FILE|DIR|GLOB...|-] [--json] [--top N] [--per-file] [--last 10m]',
    load: async () => (await import('./commands/log.js')).runLog,
  },
  cluster: {
    summary: 'run wisp log across machines on BullMQ: wisp cluster enqueue|worker|collect --redis URL',
    load: async () => (await import('./commands/cluster.js')).runCluster,
  },
  merge: {
    summary: 'merge partials written by wisp log --emit-partial: wisp merge PARTIAL... [--json] [--top N]',
    load: async () => (await import('./commands/merge.js')).runMerge,
  },
  shape: {
    summary: 'outline JSON or JSON Lines: wisp shape [FILE|-] [--json] [--max-lines N] [--workers N] [--max-bytes N]',
    load: async () => (await import('./commands/shape.js')).runShape,
  },
  info: {
    summary: 'facts about this machine: wisp info TOPIC [--port N] [--process NAME|PID] [--path DIR] [--json]',
    load: async () => (await import('./commands/info.js')).runInfo,
  },
  redact: {
    summary: 'redact credentials and personal data, line by line: wisp redact < FILE',
    load: async () => (await import('./commands/redact.js')).runRedact,
  },
  mcp: {
    summary: 'the MCP server on stdio: wisp mcp [--root DIR]... [--allow-command "PROGRAM ARGS"]... [--state-dir DIR]',
    load: async () => (await import('./commands/mcp.js')).runMcp,
  },
};

const USAGE = `usage: wisp COMMAND [ARGS] | wisp --version\n\ncommands:\n${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`)
  .join('\n')}\n`;

export async function main(argv: string[], io: CliIo = process): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`wisp ${WISP_VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr.write(`wisp: unknown command '${name}'\n${USAGE}`);
    return 2;
  }
  const output = watchOutput(io.stdout);
  try {
    const run = await command.load();
    const code = await run(rest, io);
    // A failed write to a file or a pipe is reported on the next tick: let it arrive.
    await new Promise((resolve) => setImmediate(resolve));
    if (output.failure !== undefined) throw writeFailed(output.failure);
    return code;
  } catch (err) {
    if (isWispError(err)) {
      io.stderr.write(`wisp ${name}: ${err.message}${err.hint ? ` (${err.hint})` : ''} [${err.code}]\n`);
    } else {
      io.stderr.write(`wisp ${name}: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    return exitCodeFor(err);
  } finally {
    output.stop();
  }
}

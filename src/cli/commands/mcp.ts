import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WispError } from '../../errors.js';
import { createWispServer } from '../../mcp/server.js';
import { parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const MCP_USAGE = 'wisp mcp [--root DIR]... [--allow-command "PROGRAM ARGS"]... [--state-dir DIR] [--deadline SECONDS]';

/** $XDG_STATE_HOME/wisp, else ~/.local/state/wisp. */
function defaultStateDir(): string {
  return join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'wisp');
}

/** Splits an allowlist entry on spaces; quoting is not offered: an entry is plain words. */
function commandPrefix(entry: string): string[] {
  const words = entry.trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) throw new WispError('WISP_BAD_ARGUMENT', '--allow-command needs a program name');
  return words;
}

/** The MCP server on stdio. stdout carries the protocol only; everything else goes to stderr. */
export const runMcp: CommandRunner = async (args, io) => {
  const parsed = parseCommandLine(args, {
    root: { type: 'string', multiple: true, default: [] },
    'allow-command': { type: 'string', multiple: true, default: [] },
    'state-dir': { type: 'string' },
    deadline: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  }, MCP_USAGE);
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new WispError('WISP_BAD_ARGUMENT', `wisp mcp takes no file names (got ${positionals[0]}); usage: ${MCP_USAGE}`);
  if (values.help) {
    io.stdout.write(`usage: ${MCP_USAGE}\n`);
    return 0;
  }
  const deadlineMs = values.deadline === undefined ? undefined : parseInteger('--deadline', values.deadline, 1, 3600) * 1000;
  const { server, context } = await createWispServer({
    roots: values.root,
    allowCommands: values['allow-command'].map(commandPrefix),
    stateDir: values['state-dir'] ?? defaultStateDir(),
    ...(deadlineMs !== undefined ? { limits: { deadlineMs } } : {}),
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  io.stderr.write(`wisp mcp: ready on stdio; roots: ${context.roots.list().join(', ') || '(none yet)'}\n`);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await context.close();
  return 0;
};

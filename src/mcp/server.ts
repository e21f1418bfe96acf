import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { WISP_VERSION } from '../core/version.js';
import { AuditLog } from './audit-log.js';
import { DEFAULT_LIMITS, ServerContext, type ServerLimits } from './context.js';
import { RawStore, type RawStoreLimits } from './raw-store.js';
import { registerRawResources } from './resources.js';
import { AllowedRoots } from './roots.js';
import { registerCondenseLog } from './tools/condense-log.js';
import { registerGrepRaw } from './tools/grep-raw.js';
import { registerJsonShape } from './tools/json-shape.js';
import { registerRunAndCondense, runDescription } from './tools/run-and-condense.js';
import { registerSystemInfo } from './tools/system-info.js';

export interface WispServerOptions {
  /** Folders paths may name, besides the client's own roots. */
  roots?: string[];
  /** Command prefixes allowed without asking, each an argv (`['git', 'diff']`). */
  allowCommands?: string[][];
  /** Run commands without a sandbox (default false: sandboxed, or refused where no sandbox exists). */
  noSandbox?: boolean;
  /** Let sandboxed commands reach the network (default false). */
  allowNetwork?: boolean;
  /** Environment variables commands get besides PATH, HOME, the locale and a few more. */
  passEnv?: string[];
  /** Where the raw payloads and the audit log live; servers may share it. */
  stateDir: string;
  limits?: Partial<ServerLimits>;
  rawLimits?: Partial<RawStoreLimits>;
}

/** How long the first path check waits for the client's roots before judging without them. */
const ROOTS_WAIT_MS = 5000;

/** One server with every tool registered; the transport is chosen by the caller. */
export async function createWispServer(options: WispServerOptions): Promise<{ server: McpServer; context: ServerContext }> {
  const server = new McpServer(
    { name: 'wisp', version: WISP_VERSION },
    {
      capabilities: { tools: {}, resources: {}, logging: {} },
      instructions:
        "wisp condenses large machine output. Use condense_log for logs, CI output, crash reports and the system log, json_shape for large JSON, run_and_condense to run a command and condense its output, grep_raw on a result's handle to search what the condensed view left out, and system_info for ports, processes, disk and memory.",
    },
  );
  const context = new ServerContext({
    server,
    roots: await AllowedRoots.fromFlags(options.roots ?? []),
    store: new RawStore(join(options.stateDir, 'raw'), options.rawLimits),
    audit: new AuditLog(join(options.stateDir, 'audit.jsonl')),
    commands: {
      allow: options.allowCommands ?? [],
      sandbox: options.noSandbox !== true,
      allowNetwork: options.allowNetwork === true,
      passEnv: options.passEnv ?? [],
    },
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    stateDir: options.stateDir,
  });

  registerCondenseLog(context);
  registerJsonShape(context);
  const runTool = registerRunAndCondense(context);
  registerGrepRaw(context);
  registerSystemInfo(context);
  registerRawResources(context);

  // The client's roots widen the allowed folders; they are read once ready and again on
  // change, and run_and_condense's description names them.
  const refreshRoots = async (): Promise<void> => {
    try {
      const { roots } = await server.server.listRoots();
      await context.roots.setClientRoots(roots.map((r) => r.uri));
      runTool.update({ description: runDescription(context) });
    } catch (err) {
      process.stderr.write(`wisp mcp: could not list the client's roots: ${(err as Error).message}\n`);
    }
  };
  server.server.oninitialized = () => {
    if (server.server.getClientCapabilities()?.roots === undefined) return context.roots.markReady();
    const timer = setTimeout(() => context.roots.markReady(), ROOTS_WAIT_MS).unref();
    void refreshRoots().finally(() => {
      clearTimeout(timer);
      context.roots.markReady();
    });
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, refreshRoots);
  return { server, context };
}

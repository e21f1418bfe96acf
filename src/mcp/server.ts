import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { WISP_VERSION } from '../version.js';
import { AuditLog } from './audit-log.js';
import { DEFAULT_LIMITS, ServerContext, type ServerLimits } from './context.js';
import { RawStore, type RawStoreLimits } from './raw-store.js';
import { AllowedRoots } from './roots.js';
import { registerCondenseLog } from './tools/condense-log.js';
import { registerGrepRaw } from './tools/grep-raw.js';
import { registerJsonShape } from './tools/json-shape.js';
import { registerSystemInfo } from './tools/system-info.js';

export interface WispServerOptions {
  /** Folders paths may name, besides the client's own roots. */
  roots?: string[];
  /** Command prefixes allowed without asking, each an argv (`['git', 'diff']`). */
  allowCommands?: string[][];
  /** Where the raw payloads and the audit log live. */
  stateDir: string;
  limits?: Partial<ServerLimits>;
  rawLimits?: Partial<RawStoreLimits>;
}


/** One server with every tool registered; the transport is chosen by the caller. */
export async function createWispServer(options: WispServerOptions): Promise<{ server: McpServer; context: ServerContext }> {
  const server = new McpServer(
    { name: 'wisp', version: WISP_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'wisp condenses large machine output. Use condense_log for logs, CI output, crash reports and the system log, json_shape for large JSON, grep_raw on a result\'s handle to search what the condensed view left out, and system_info for ports, processes, disk and memory.',
    },
  );
  const context = new ServerContext({
    server,
    roots: await AllowedRoots.fromFlags(options.roots ?? []),
    store: new RawStore(join(options.stateDir, 'raw'), options.rawLimits),
    audit: new AuditLog(join(options.stateDir, 'audit.jsonl')),
    allowCommands: options.allowCommands ?? [],
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  });

  registerCondenseLog(context);
  registerJsonShape(context);
  registerGrepRaw(context);
  registerSystemInfo(context);

  // The client's roots widen the allowed folders; they are read once ready and again on change.
  const refreshRoots = async (): Promise<void> => {
    if (server.server.getClientCapabilities()?.roots === undefined) return;
    try {
      const { roots } = await server.server.listRoots();
      await context.roots.setClientRoots(roots.map((r) => r.uri));
    } catch (err) {
      process.stderr.write(`wisp mcp: could not list the client's roots: ${(err as Error).message}\n`);
    }
  };
  server.server.oninitialized = () => void refreshRoots();
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, refreshRoots);
  return { server, context };
}

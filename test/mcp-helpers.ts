import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createWispServer, type WispServerOptions } from '../src/mcp/server.js';
import { WISP_BIN } from './helpers.js';

export interface Connected {
  client: Client;
  close: () => Promise<void>;
}

export interface ClientOptions {
  /** file:// URIs the client offers as its roots. */
  roots?: string[];
  /** How long the client takes to answer roots/list, in ms (default at once). */
  rootsDelayMs?: number;
  /** How the client's user answers an elicitation; absent: no elicitation capability. */
  elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
}

function makeClient(options: ClientOptions): Client {
  const capabilities: Record<string, unknown> = {};
  if (options.roots !== undefined) capabilities.roots = { listChanged: true };
  if (options.elicit !== undefined) capabilities.elicitation = {};
  const client = new Client({ name: 'wisp-test', version: '1.0.0' }, { capabilities });
  if (options.roots !== undefined) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      if (options.rootsDelayMs !== undefined) await new Promise((r) => setTimeout(r, options.rootsDelayMs));
      return { roots: roots.map((uri) => ({ uri })) };
    });
  }
  if (options.elicit !== undefined) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => elicit(String(req.params.message)));
  }
  return client;
}

/** A real SDK client and a real wisp server over the SDK's in-memory transport pair. */
export async function connect(server: WispServerOptions, clientOptions: ClientOptions = {}): Promise<Connected> {
  const { server: mcp, context } = await createWispServer(server);
  const client = makeClient(clientOptions);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await mcp.close();
      await context.close();
    },
  };
}

export interface StdioConnected extends Connected {
  /** The server process's pid. */
  pid: number;
  stderr: () => string;
}

/** The built server as a child process (`wisp mcp ARGS`), driven by the SDK client over stdio, as an agent's host does. */
export async function connectStdio(args: string[], clientOptions: ClientOptions = {}, env?: Record<string, string>, nodeArgs: string[] = []): Promise<StdioConnected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, WISP_BIN, 'mcp', ...args],
    stderr: 'pipe',
    ...(env !== undefined ? { env } : {}),
  });
  let stderr = '';
  transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const client = makeClient(clientOptions);
  await client.connect(transport);
  return { client, pid: transport.pid!, stderr: () => stderr, close: () => client.close() };
}

export type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

export const textOf = (r: ToolResult): string => r.content.map((c) => c.text ?? '').join('\n');

/** What clients that read only structuredContent hand the model. */
export const modelView = (r: ToolResult): string => JSON.stringify(r.structuredContent);

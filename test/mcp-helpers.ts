import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createWispServer, type WispServerOptions } from '../src/mcp/server.js';

export interface Connected {
  client: Client;
  close: () => Promise<void>;
}

export interface ClientOptions {
  /** file:// URIs the client offers as its roots. */
  roots?: string[];
  /** How the client's user answers an elicitation; absent: no elicitation capability. */
  elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
}

/** A real SDK client and a real wisp server over the SDK's in-memory transport pair. */
export async function connect(server: WispServerOptions, clientOptions: ClientOptions = {}): Promise<Connected> {
  const { server: mcp, context } = await createWispServer(server);
  const capabilities: Record<string, unknown> = {};
  if (clientOptions.roots !== undefined) capabilities.roots = { listChanged: true };
  if (clientOptions.elicit !== undefined) capabilities.elicitation = {};
  const client = new Client({ name: 'wisp-test', version: '1.0.0' }, { capabilities });
  if (clientOptions.roots !== undefined) {
    const roots = clientOptions.roots;
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((uri) => ({ uri })) }));
  }
  if (clientOptions.elicit !== undefined) {
    const elicit = clientOptions.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => elicit(String(req.params.message)));
  }
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

export type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

export const textOf = (r: ToolResult): string => r.content.map((c) => c.text ?? '').join('\n');

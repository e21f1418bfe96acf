import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isWispError } from '../core/errors.js';
import { readLines } from '../grep/grep-file.js';
import { formatCount } from '../core/text.js';
import type { ServerContext } from './context.js';
import type { RawPayload } from './raw-store.js';

/** The raw resource returns at most this much text a read. */
const RESOURCE_MAX_CHARS = 256 * 1024;
const RESOURCE_MAX_LINES = 5000;
/** The spec's code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A JSON-RPC error for a resource read. Not an McpError: the SDK puts its message in the
 * response, and McpError's message already starts "MCP error N:", which the client adds again.
 */
const rpcError = (code: number, message: string, data?: unknown): Error => Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });

/**
 * `wisp://raw/{handle}`, with `?from=N`, `?to=M`, both or neither. The SDK's template
 * matcher needs every query variable of `{?from,to}` present, in order; so reads go to the
 * plain template (whose `{handle}` also takes the query) and the query is read from the
 * URL here. The query template is registered for clients listing templates.
 */
export function registerRawResources(ctx: ServerContext): void {
  const handles = (prefix: string): string[] =>
    ctx.store
      .list()
      .map((p) => p.handle)
      .filter((h) => h.startsWith(prefix))
      .reverse()
      .slice(0, 100);
  const read = (uri: URL) => readRaw(ctx, uri);
  ctx.server.registerResource(
    'raw',
    new ResourceTemplate('wisp://raw/{handle}', {
      list: () => ({
        resources: ctx.store.list().map((p) => ({
          uri: `wisp://raw/${p.handle}`,
          name: p.handle,
          description: `${p.source}: ${formatCount(p.lines)} lines, ${formatCount(p.bytes)} bytes`,
          mimeType: 'text/plain',
        })),
      }),
      complete: { handle: handles },
    }),
    {
      title: 'Raw payloads',
      description: `Exactly what a condensing call read, by handle (redacted): the first ${formatCount(RESOURCE_MAX_LINES)} lines or 256 KB; add ?from=N and/or ?to=M for other lines.`,
      mimeType: 'text/plain',
    },
    read,
  );
  ctx.server.registerResource(
    'raw-lines',
    new ResourceTemplate('wisp://raw/{handle}{?from,to}', { list: undefined, complete: { handle: handles } }),
    {
      title: 'Raw payload lines',
      description: `Lines from..to (1-based; either may be left out) of a raw payload, at most ${formatCount(RESOURCE_MAX_LINES)} lines or 256 KB a read (redacted).`,
      mimeType: 'text/plain',
    },
    read,
  );
}

function readRaw(ctx: ServerContext, uri: URL): { contents: { uri: string; mimeType: string; text: string }[] } {
  const handle = decodeURIComponent(uri.pathname.replace(/^\//, ''));
  let payload: RawPayload;
  try {
    payload = ctx.store.get(handle);
  } catch (err) {
    const message = isWispError(err) ? `${err.code}: ${err.message}${err.hint ? `. ${err.hint}` : ''}` : String(err);
    throw rpcError(RESOURCE_NOT_FOUND, message, { uri: uri.href });
  }
  for (const key of uri.searchParams.keys()) {
    if (key !== 'from' && key !== 'to') throw rpcError(ErrorCode.InvalidParams, `unknown query parameter '${key}': use from and to (line numbers)`);
  }
  const from = lineNumber('from', uri.searchParams.get('from'), 1);
  const asked = lineNumber('to', uri.searchParams.get('to'), Math.max(payload.lines, from));
  if (asked < from) throw rpcError(ErrorCode.InvalidParams, `to (${asked}) is before from (${from})`);
  const to = Math.min(asked, from + RESOURCE_MAX_LINES - 1);
  const { lines, cut } = readLines(payload.file, from, to, RESOURCE_MAX_CHARS);
  const last = from + lines.length - 1;
  let note = '';
  if (lines.length === 0) note = `[wisp: the payload has ${formatCount(payload.lines)} lines; from=${from} is past its end]`;
  else if (cut || last < Math.min(asked, payload.lines)) note = `\n[wisp: lines ${from}-${last} of ${payload.lines} shown; ask for ?from=${last + 1} for more]`;
  ctx.audit.record({ tool: 'resource:raw', source: handle, outcome: 'ok', bytes: payload.bytes });
  return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: lines.join('\n') + note }] };
}

function lineNumber(name: string, v: string | null, fallback: number): number {
  if (v === null) return fallback;
  if (!/^\d{1,10}$/.test(v) || Number(v) < 1) {
    throw rpcError(ErrorCode.InvalidParams, `${name} is a line number (a whole number from 1), got '${v}'`);
  }
  return Number(v);
}

import { z } from 'zod';
import { WispError } from '../core/errors.js';
import type { ServerContext } from './context.js';
import type { PayloadOrigin } from './raw-store.js';
import { checkRegularFile } from './roots.js';

/** The read-only sources condense_log and json_shape share: exactly one per call. */
export const sourceFields = {
  path: z.string().min(1).max(4096).optional().describe('Absolute path of a regular file inside the allowed roots (plain or .gz).'),
  text: z.string().min(1).max(1_000_000).optional().describe('The content itself, inline (at most 1,000,000 characters): for short output you already hold.'),
};

export type SourceArgs = { path?: string | undefined; text?: string | undefined };

export type ResolvedSource = { kind: 'path'; path: string } | { kind: 'text'; text: string };

/** How a call's source is named in results and the audit log: the path or `text`. */
export function sourceLabel(args: SourceArgs): string {
  return args.path ?? 'text';
}

export function originOf(source: ResolvedSource): PayloadOrigin {
  return source.kind === 'path' ? { kind: 'file', path: source.path } : { kind: 'text' };
}

/** Exactly one of the fields named, or a WISP_BAD_ARGUMENT naming what was given. */
export function exactlyOne(args: Record<string, unknown>, names: readonly string[]): void {
  const given = names.filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new WispError(
      'WISP_BAD_ARGUMENT',
      given.length === 0 ? `give one source: ${names.join(', ').replace(/, ([^,]*)$/, ' or $1')}` : `give exactly one source, got ${given.join(' and ')}`,
    );
  }
}

/** The path checked (inside the roots, a regular file) or the text. */
export async function resolveSource(ctx: ServerContext, args: SourceArgs): Promise<ResolvedSource> {
  if (args.path !== undefined) return { kind: 'path', path: await checkRegularFile(ctx.roots, args.path) };
  return { kind: 'text', text: args.text! };
}

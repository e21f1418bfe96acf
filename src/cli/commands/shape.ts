import { WispError } from '../../core/errors.js';
import { jsonShape, type ShapeInput, type ShapeOptions } from '../../shape/index.js';
import { parseByteCount, parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const SHAPE_USAGE = 'wisp shape [FILE|-] [--json] [--max-lines N] [--workers N] [--max-bytes N]';

/** `wisp shape`: outline a JSON document or JSON Lines (text, or --json for the tree). */
export const runShape: CommandRunner = async (args, io) => {
  const parsed = parseCommandLine(args, {
    json: { type: 'boolean', default: false },
    'max-lines': { type: 'string' },
    workers: { type: 'string' },
    'max-bytes': { type: 'string' },
    // Not for users: let tests prove that output does not depend on chunking or streaming.
    'chunk-bytes': { type: 'string' },
    'hold-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  }, SHAPE_USAGE);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(`usage: ${SHAPE_USAGE}\n`);
    return 0;
  }
  if (positionals.length > 1) {
    throw new WispError('WISP_BAD_ARGUMENT', `shape reads one input, got ${positionals.length}; usage: ${SHAPE_USAGE}`);
  }
  const options: ShapeOptions = {};
  if (values['max-lines'] !== undefined) options.maxLines = parseInteger('--max-lines', values['max-lines'], 10, 100_000);
  if (values.workers !== undefined) options.workers = parseInteger('--workers', values.workers, 0, 64);
  if (values['max-bytes'] !== undefined) options.maxBytes = parseByteCount('--max-bytes', values['max-bytes']);
  if (values['chunk-bytes'] !== undefined) options.chunkBytes = parseByteCount('--chunk-bytes', values['chunk-bytes']);
  if (values['hold-bytes'] !== undefined) options.holdBytes = parseByteCount('--hold-bytes', values['hold-bytes']);

  const path = positionals[0] ?? '-';
  if (path === '-' && positionals.length === 0 && (io.stdin as { isTTY?: boolean }).isTTY) {
    throw new WispError('WISP_BAD_ARGUMENT', `no input: name a JSON file or pipe one in; usage: ${SHAPE_USAGE}`);
  }
  const input: ShapeInput = path === '-' ? { stream: io.stdin as AsyncIterable<Uint8Array | string> } : { path };
  const report = await jsonShape(input, options);
  io.stdout.write(values.json ? `${JSON.stringify(report.tree, null, 2)}\n` : report.text);
  return 0;
};

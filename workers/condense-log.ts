/**
 * Piscina worker: condenses one transferred chunk of whole lines. The buffer arrives
 * detached from the main thread (no copy), is decoded once, and only the small partial
 * result goes back.
 */
import { condenseChunk } from '../src/log/condense-chunk.js';
import type { FormatInfo } from '../src/log/format.js';
import type { LogPartial } from '../src/log/partial.js';

export interface CondenseLogTask {
  buffer: ArrayBuffer;
  info: FormatInfo;
}

const decoder = new TextDecoder('utf-8');

export default function condenseLogTask({ buffer, info }: CondenseLogTask): LogPartial {
  return condenseChunk(decoder.decode(new Uint8Array(buffer)), info);
}

/**
 * Piscina worker: condenses one transferred chunk of whole lines. The buffer arrives
 * detached from the main thread (no copy), is read in place as bytes, and only the small
 * partial result goes back.
 */
import { condenseChunk } from '../src/log/chunk/condense-chunk.js';
import type { FormatInfo } from '../src/log/model/format.js';
import type { LogPartial } from '../src/log/model/partial.js';

export interface CondenseLogTask {
  buffer: ArrayBuffer;
  info: FormatInfo;
}

export default function condenseLogTask({ buffer, info }: CondenseLogTask): LogPartial {
  return condenseChunk(Buffer.from(buffer), info);
}

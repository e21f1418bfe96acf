/** Building CrashFrames the way Apple prints them, from .ips JSON frames. */

import { bigIntOf, intOf, isObject, str, type JsonObject } from './json-body.js';
import type { CrashFrame } from './types.js';

export const ANONYMOUS_IMAGE = '???';

export function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}

/** One entry of `usedImages`, reduced to what frame rendering needs. */
export interface UsedImage {
  name: string;
  base: bigint;
}

export function readUsedImages(v: unknown): UsedImage[] {
  if (!Array.isArray(v)) return [];
  return v.map((image) => {
    const o: JsonObject = isObject(image) ? image : {};
    return { name: str(o.name) ?? ANONYMOUS_IMAGE, base: bigIntOf(o.base) ?? 0n };
  });
}

/**
 * Turn `frames[]` entries into CrashFrames, keeping the first `limit`. The address is
 * usedImages[imageIndex].base + imageOffset, in BigInt so no digit is lost. An unsymbolicated
 * frame reads "0xbase + offset", like `2   MyApp   0x1007da4bc 0x1007d4000 + 25788`.
 */
export function readFrames(
  frames: unknown[],
  images: UsedImage[],
  limit: number,
  onMissingImage: (imageIndex: number) => void,
): CrashFrame[] {
  const out: CrashFrame[] = [];
  for (const [index, raw] of frames.slice(0, limit).entries()) {
    const f: JsonObject = isObject(raw) ? raw : {};
    const imageIndex = intOf(f.imageIndex);
    let image: UsedImage | undefined = imageIndex === undefined ? undefined : images[imageIndex];
    if (image === undefined) {
      if (imageIndex !== undefined) onMissingImage(imageIndex);
      image = { name: ANONYMOUS_IMAGE, base: 0n };
    }
    const offset = bigIntOf(f.imageOffset) ?? 0n;
    const symbolName = str(f.symbol);
    const symbolOffset = bigIntOf(f.symbolLocation) ?? 0n;
    let symbol = symbolName !== undefined ? `${symbolName} + ${symbolOffset}` : `${hex(image.base)} + ${offset}`;
    // Newer reports list inlined calls as frames of their own at the caller's address.
    if (f.inline === true) symbol += ' [inlined]';
    const frame: CrashFrame = { index, image: image.name, address: hex(image.base + offset), symbol };
    const source = sourceOf(f);
    if (source !== undefined) frame.source = source;
    out.push(frame);
  }
  return out;
}

function sourceOf(f: JsonObject): string | undefined {
  const file = str(f.sourceFile);
  if (file === undefined) return undefined;
  const line = intOf(f.sourceLine);
  return line === undefined ? file : `${file}:${line}`;
}

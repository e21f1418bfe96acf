import type { ReadProgress } from '../pipeline/progress.js';

const MB = 1024 * 1024;

/**
 * One line on a terminal's stderr, rewritten in place: bytes and inputs done, MB/s, and an
 * ETA where the total is known. Nothing at all when stderr is not a terminal.
 */
export function progressBar(stderr: NodeJS.WritableStream): { update: (p: ReadProgress) => void; done: () => void } {
  if ((stderr as { isTTY?: boolean }).isTTY !== true) return { update: () => {}, done: () => {} };
  const started = Date.now();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - lastDraw < 200) return;
      lastDraw = now;
      const secs = Math.max(0.001, (now - started) / 1000);
      const rate = p.bytes / MB / secs;
      let line = `wisp: ${(p.bytes / MB).toFixed(0)}${p.totalBytes !== undefined ? ` of ${(p.totalBytes / MB).toFixed(0)}` : ''} MB, ${p.inputsDone} of ${p.inputs} files, ${rate.toFixed(0)} MB/s`;
      if (p.totalBytes !== undefined && rate > 0) line += `, ETA ${Math.max(0, Math.round((p.totalBytes - p.bytes) / MB / rate))} s`;
      stderr.write(`\r${line}\u001b[K`);
      drawn = true;
    },
    done() {
      if (drawn) stderr.write('\r\u001b[K');
    },
  };
}

/**
 * Piscina worker for json_shape: shapes one transferred chunk of whole JSON Lines (see
 * src/shape/chunk-task.ts). CommonJS, importing its ES modules once per thread, for the
 * reason workers/condense-log.cts gives. The walker is primed before the first chunk (prime.ts).
 */
let run: Promise<(task: unknown) => unknown> | undefined;
async function load(): Promise<(task: unknown) => unknown> {
  (await import('../src/shape/prime.js')).primeWalker();
  return (await import('../src/shape/chunk-task.js')).runShapeTask as (task: unknown) => unknown;
}
export = async (task: unknown): Promise<unknown> => (await (run ??= load()))(task);

/**
 * Piscina worker: condenses one transferred chunk of whole records (see src/log/chunk/task.ts).
 *
 * CommonJS on purpose: piscina require()s a worker file before it tries import(), and Node
 * 20 loads an ES module given to require() through require(esm), whose loader can assert on
 * a module graph another task is still loading (once it aborted a CI run: "IsGraphAsync must
 * be used on an instantiated module"). This file imports the task's ES module itself, once
 * per thread, so piscina only ever requires plain CommonJS.
 */
type Run = (task: unknown) => unknown;
let run: Promise<Run> | undefined;
export = async (task: unknown): Promise<unknown> => (await (run ??= import('../src/log/chunk/task.js').then((m) => m.runCondenseChunkTask as Run)))(task);

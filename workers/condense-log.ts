/** Piscina worker: condenses one transferred chunk of whole records (see src/log/chunk/task.ts). */
export { runCondenseChunkTask as default } from '../src/log/chunk/task.js';

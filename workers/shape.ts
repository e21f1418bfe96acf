/** Piscina worker for json_shape: shapes one transferred chunk of whole JSON Lines (see src/shape/chunk-task.ts). */
import { primeWalker } from '../src/shape/prime.js';

// Before the first chunk: see prime.ts.
primeWalker();

export { runShapeTask as default } from '../src/shape/chunk-task.js';

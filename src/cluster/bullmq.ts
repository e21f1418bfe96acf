import { importOptional } from '../core/optional.js';

/** bullmq, an optional dependency: loaded when `wisp cluster` runs, never before. */
export const loadBullmq = (): Promise<typeof import('bullmq')> => importOptional<typeof import('bullmq')>('bullmq', 'wisp cluster');

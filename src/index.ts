/** wisp as a library: the condensers, their sources, and the shared worker pool. */
export { condenseLog } from './log/index.js';
export type { RunOptions } from './pipeline/options.js';
export type { ReadProgress } from './pipeline/progress.js';
export type { OverMaxBytes } from './input/byte-limit.js';
export { AGENT_MAX_BYTES, type CondenseLogOptions } from './log/options.js';
export type { CondenseResult, CrashResult, LogResult, ShownGroup, InputRead } from './log/model/result.js';
export { parseCrashReport, renderCrashReport, type CrashReport } from './crash/index.js';
export { renderLogText, TEXT_BYTES } from './log/render/log-text.js';
export { fileSource, streamSource, textSource, type LogSource } from './input/sources.js';
export { WorkerPool } from './pipeline/worker-pool.js';
export { WispError, type WispErrorCode } from './core/errors.js';
export { WISP_VERSION } from './core/version.js';
export { redact } from './redact/index.js';
export { jsonShape, type ShapeInput, type ShapeOptions, type ShapeReport, type ShapeTree, type ShapeTreeNode } from './shape/index.js';
export { systemInfo, type SystemInfoAnswer, type SystemInfoRequest } from './system-info/index.js';
export { journalSource } from './input/journal.js';
export { createWispServer, type WispServerOptions } from './mcp/server.js';

/**
 * system_info: answers about this machine from fixed, read-only probes, as a
 * short table of at most 15 rows and 4 KiB that says what it could not see.
 *
 *   const answer = await systemInfo({ topic: 'ports', port: 8080 });
 *   answer.text  // the table as text; the other fields are the same answer, structured
 *
 * The request is validated whole before any probe runs (WISP_BAD_ARGUMENT otherwise).
 */
import { buildAnswer, type AnswerParts, type SystemInfoAnswer } from './answer.js';
import { defaultContext, type TopicContext } from './context.js';
import { validateRequest, type SystemInfoRequest, type ValidRequest } from './request.js';
import { batteryTopic } from './topics/battery.js';
import { folderSizesTopic } from './topics/folder-sizes.js';
import { freeSpaceTopic } from './topics/free-space.js';
import { memoryTopic } from './topics/memory.js';
import { networkTopic } from './topics/network.js';
import { portsTopic } from './topics/ports.js';
import { processTopic } from './topics/process.js';
import { processesTopic } from './topics/processes.js';
import { systemTopic } from './topics/system.js';

export { MAX_BYTES, MAX_ROWS, type Fact, type SystemInfoAnswer } from './answer.js';
export { TOPICS, validateRequest, type SystemInfoRequest, type Topic, type ValidRequest } from './request.js';

export interface SystemInfoOptions {
  signal?: AbortSignal;
  /** The CPU sample of the process topics, ms (default 500). */
  sampleMs?: number;
}

export async function systemInfo(request: SystemInfoRequest, options: SystemInfoOptions = {}): Promise<SystemInfoAnswer> {
  const valid = await validateRequest(request);
  const ctx = defaultContext(options.signal, options.sampleMs ?? 500);
  return buildAnswer(await runTopic(valid, ctx));
}

function runTopic(req: ValidRequest, ctx: TopicContext): Promise<AnswerParts> {
  switch (req.topic) {
    case 'ports':
      return portsTopic(ctx, req.port);
    case 'process':
      return processTopic(ctx, req.target);
    case 'folderSizes':
      return folderSizesTopic(ctx, req.path);
    case 'processes':
      return processesTopic(ctx);
    case 'freeSpace':
      return freeSpaceTopic(ctx);
    case 'memory':
      return memoryTopic(ctx);
    case 'battery':
      return batteryTopic(ctx);
    case 'system':
      return systemTopic(ctx);
    case 'network':
      return networkTopic(ctx);
  }
}

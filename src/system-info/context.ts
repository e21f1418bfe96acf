/** What every topic gets: how to cancel, and the CPU sample length. */
export interface TopicContext {
  signal: AbortSignal | undefined;
  /** CPU sample length for the process topics, in ms (500 unless a test shortens it). */
  sampleMs: number;
  /** Whether the caller is root: what it cannot see depends on it. */
  isRoot: boolean;
  selfUid: number;
}

export function defaultContext(signal?: AbortSignal, sampleMs = 500): TopicContext {
  const uid = process.getuid?.() ?? -1;
  return { signal, sampleMs, isRoot: uid === 0, selfUid: uid };
}

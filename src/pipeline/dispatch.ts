/**
 * Ordered, bounded dispatch: the skeleton both condensers run on. Items are read in input
 * order; each may start a task (in a worker thread or right here); results are taken
 * strictly in input order, with at most `limit` items in flight, so memory stays bounded
 * and the outcome cannot depend on which task finished first.
 *
 *   items --start--> [ in flight, at most limit ] --take, in order--> caller's merge
 */
export interface Dispatch<I, R> {
  /** The work for an item, or undefined for an item that carries none (an input's end). */
  start(item: I): Promise<R> | undefined;
  /** Each item with its result, in input order. */
  take(item: I, result: R | undefined): void | Promise<void>;
  /** Items in flight at most (at least 1). */
  limit: number;
  /** Checked before each item is started: stops dispatching, never a task already sent. */
  signal?: AbortSignal | undefined;
  /** The error a cancelled run ends with. */
  cancelled: () => Error;
}

export async function dispatchInOrder<I, R>(items: AsyncIterable<I>, d: Dispatch<I, R>): Promise<void> {
  const inFlight: { item: I; result: Promise<R> | undefined }[] = [];
  const takeOldest = async (): Promise<void> => {
    const { item, result } = inFlight.shift()!;
    await d.take(item, result === undefined ? undefined : await result);
  };
  try {
    for await (const item of items) {
      if (d.signal?.aborted) throw d.cancelled();
      const result = d.start(item);
      // Awaited in order by takeOldest; this only marks an early rejection as handled.
      result?.catch(() => undefined);
      inFlight.push({ item, result });
      if (inFlight.length >= d.limit) await takeOldest();
    }
    while (inFlight.length > 0) await takeOldest();
  } catch (err) {
    // Let the tasks already sent settle, so that none answers a pool that is closing.
    await Promise.allSettled(inFlight.map((f) => f.result));
    if (d.signal?.aborted) throw d.cancelled();
    throw err;
  }
}

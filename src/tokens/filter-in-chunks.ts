import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * The items that pass `keep`, tested `chunkSize` at a time with a turn of the event loop between chunks: a filter
 * whose test is costly (decrypting a key) over a long list must not hold every other request back until it ends.
 */
export async function filterInChunks<Item>(
  items: readonly Item[],
  keep: (item: Item) => boolean,
  chunkSize: number,
): Promise<Item[]> {
  const kept: Item[] = [];
  for (let start = 0; start < items.length; start += chunkSize) {
    if (start > 0) await yieldToEventLoop();
    const end = Math.min(items.length, start + chunkSize);
    for (let index = start; index < end; index += 1) if (keep(items[index]!)) kept.push(items[index]!);
  }
  return kept;
}

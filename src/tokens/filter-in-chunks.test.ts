import { describe, expect, it } from "vitest";
import { filterInChunks } from "./filter-in-chunks.js";

describe("filterInChunks", () => {
  it("keeps what passes, in order, across chunks", async () => {
    const items = Array.from({ length: 1000 }, (_, index) => index);
    expect(await filterInChunks(items, (item) => item % 7 === 0, 100)).toEqual(items.filter((item) => item % 7 === 0));
    expect(await filterInChunks([], () => true, 100)).toEqual([]);
  });

  it("lets the event loop run other work between chunks, never within one", async () => {
    const events: string[] = [];
    let tested = 0;
    // Another request's work, queued as the filter starts: it must get turns while the filter runs.
    let ticks = 0;
    const tick = () => {
      events.push(`tick after ${tested}`);
      ticks += 1;
      if (ticks < 20) setImmediate(tick);
    };
    setImmediate(tick);
    await filterInChunks(
      Array.from({ length: 1000 }, (_, index) => index),
      () => {
        tested += 1;
        return false;
      },
      100,
    );
    const during = events.filter((event) => !event.endsWith("after 1000"));
    // One turn between each pair of chunks, each after a whole chunk.
    expect(during).toEqual(Array.from({ length: 9 }, (_, index) => `tick after ${(index + 1) * 100}`));
  });
});

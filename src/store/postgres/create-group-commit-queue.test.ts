import { describe, expect, it } from "vitest";
import { createGroupCommitQueue } from "./create-group-commit-queue.js";

/** A queue whose batches wait until the test answers them, so what went together can be read. */
function createRecordingQueue(maxInFlight: number, maxBatchSize: number) {
  const batches: { items: number[]; answer(outcomes: string[]): void; fail(error: Error): void }[] = [];
  const queue = createGroupCommitQueue<number, string>({
    maxInFlight,
    maxBatchSize,
    run: (items) =>
      new Promise((resolve, reject) => {
        batches.push({ items, answer: resolve, fail: reject });
      }),
  });
  return { queue, batches };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("createGroupCommitQueue", () => {
  it("sends a lone item at once, and everything that queued meanwhile as the next batch", async () => {
    const { queue, batches } = createRecordingQueue(1, 100);
    const first = queue.submit(1);
    expect(batches.map((batch) => batch.items)).toEqual([[1]]);
    const rest = [2, 3, 4, 5].map((item) => queue.submit(item));
    expect(batches).toHaveLength(1);
    batches[0]!.answer(["one"]);
    expect(await first).toBe("one");
    await settle();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2, 3, 4, 5]]);
    batches[1]!.answer(["two", "three", "four", "five"]);
    expect(await Promise.all(rest)).toEqual(["two", "three", "four", "five"]);
  });

  it("keeps up to maxInFlight batches out and cuts batches at maxBatchSize", async () => {
    const { queue, batches } = createRecordingQueue(2, 2);
    const outcomes = [1, 2, 3, 4, 5, 6].map((item) => queue.submit(item));
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2]]);
    batches[0]!.answer(["a"]);
    await settle();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2], [3, 4]]);
    batches[1]!.answer(["b"]);
    batches[2]!.answer(["c", "d"]);
    await settle();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2], [3, 4], [5, 6]]);
    batches[3]!.answer(["e", "f"]);
    expect(await Promise.all(outcomes)).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("fails every item of a failed batch, and goes on with the next", async () => {
    const { queue, batches } = createRecordingQueue(1, 10);
    const first = queue.submit(1);
    const second = queue.submit(2);
    const third = queue.submit(3);
    batches[0]!.answer(["one"]);
    await first;
    await settle();
    batches[1]!.fail(new Error("connection lost"));
    await expect(second).rejects.toThrow("connection lost");
    await expect(third).rejects.toThrow("connection lost");
    const fourth = queue.submit(4);
    batches[2]!.answer(["four"]);
    expect(await fourth).toBe("four");
  });

  it("fails a batch answered with the wrong number of outcomes instead of mixing answers up", async () => {
    const { queue, batches } = createRecordingQueue(1, 10);
    const first = queue.submit(1);
    batches[0]!.answer(["one", "extra"]);
    await expect(first).rejects.toThrow("a batch of 1 items answered 2 outcomes");
  });
});

import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { insertTask } from "../tasks/insert-task.js";
import { updateTask } from "../tasks/update-task.js";
import { armTaskCallback } from "./arm-task-callback.js";
import { claimDueTaskCallbacks } from "./claim-due-task-callbacks.js";
import { claimTaskCallback } from "./claim-task-callback.js";
import { saveTaskCallbackProgress } from "./save-task-callback-progress.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("task callback state on $name", ({ database }) => {
  const { db, dialect } = database;
  const finished = async (id: string) => {
    await insertTask(db, {
      id,
      userId: 1,
      tokenId: 2,
      model: "vid-b-3.1-fast-generate-preview",
      requestBody: { callback_url: "https://client.example.com/hook" },
      createdTime: 1000,
    });
    await updateTask(db, id, { status: "completed", updatedTime: 1001 });
  };

  it("arms a finished task's callback once, and never an unfinished task's", async () => {
    await insertTask(db, { id: "cb_unfinished", userId: 1, tokenId: 2, model: "m", createdTime: 1000 });
    expect(await armTaskCallback(db, "cb_unfinished")).toBe(false);
    await finished("cb_arm");
    expect(await armTaskCallback(db, "cb_arm")).toBe(true);
    expect(await armTaskCallback(db, "cb_arm")).toBe(false);
    const claimed = await claimTaskCallback(db, { taskId: "cb_arm", nowMs: 5_000, leaseMs: 1_000 });
    expect(claimed).toMatchObject({ callbackState: "pending", callbackAttempts: 0, callbackNextAt: 6_000 });
  });

  it("lets one claim through until the outcome is written or the lease runs out", async () => {
    await finished("cb_claim");
    await armTaskCallback(db, "cb_claim");
    const [first, second] = await Promise.all([
      claimTaskCallback(db, { taskId: "cb_claim", nowMs: 10_000, leaseMs: 1_000 }),
      claimTaskCallback(db, { taskId: "cb_claim", nowMs: 10_000, leaseMs: 1_000 }),
    ]);
    expect([first, second].filter((claim) => claim !== null)).toHaveLength(1);
    // Within the lease nobody else takes it; after it, a sender that died is replaced.
    expect(await claimTaskCallback(db, { taskId: "cb_claim", nowMs: 10_999, leaseMs: 1_000 })).toBeNull();
    const takeover = await claimTaskCallback(db, { taskId: "cb_claim", nowMs: 11_000, leaseMs: 1_000 });
    expect(takeover?.callbackAttempts).toBe(0);

    // The try count is a compare-and-swap: the second writer of try 1 does not apply.
    const write = { taskId: "cb_claim", fromAttempts: 0, attempts: 1, state: "pending" as const, nextAt: 12_500 };
    expect(await saveTaskCallbackProgress(db, write)).toBe(true);
    expect(await saveTaskCallbackProgress(db, { ...write, nextAt: 99_000 })).toBe(false);
    expect(await claimTaskCallback(db, { taskId: "cb_claim", nowMs: 12_499, leaseMs: 1_000 })).toBeNull();
    const retry = await claimTaskCallback(db, { taskId: "cb_claim", nowMs: 12_500, leaseMs: 1_000 });
    expect(retry?.callbackAttempts).toBe(1);
    expect(
      await saveTaskCallbackProgress(db, {
        taskId: "cb_claim",
        fromAttempts: 1,
        attempts: 2,
        state: "delivered",
        nextAt: 0,
      }),
    ).toBe(true);
    // Delivered is final: no claim, no further writes.
    expect(await claimTaskCallback(db, { taskId: "cb_claim", nowMs: 99_999, leaseMs: 1_000 })).toBeNull();
    expect(
      await saveTaskCallbackProgress(db, {
        taskId: "cb_claim",
        fromAttempts: 2,
        attempts: 3,
        state: "pending",
        nextAt: 0,
      }),
    ).toBe(false);
  });

  it("claims due pending callbacks in disjoint batches when two instances sweep at once", async () => {
    const ids = Array.from({ length: 20 }, (_, index) => `cb_due_${index}`);
    for (const id of ids) {
      await finished(id);
      await updateTask(db, id, { callbackState: "pending", callbackNextAt: 50_000, updatedTime: 1002 });
    }
    await updateTask(db, "cb_due_0", { callbackNextAt: 70_000, updatedTime: 1002 });
    const [first, second] = await Promise.all([
      claimDueTaskCallbacks(db, dialect, { nowMs: 60_000, leaseMs: 30_000, limit: 15 }),
      claimDueTaskCallbacks(db, dialect, { nowMs: 60_000, leaseMs: 30_000, limit: 15 }),
    ]);
    const claimed = [...first, ...second].map((task) => task.id).filter((id) => id.startsWith("cb_due_"));
    // cb_due_0 is not due yet; the 19 others are taken once each.
    expect(claimed.sort()).toEqual(ids.slice(1).sort());
    expect(await claimDueTaskCallbacks(db, dialect, { nowMs: 60_000, leaseMs: 30_000, limit: 50 })).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { createLogger } from "../logging/logger.js";
import { openTestDatabases } from "../store/testing/open-test-databases.js";
import { insertTask } from "../store/tasks/insert-task.js";
import type { TaskRecord } from "../store/tasks/task-record.js";
import { updateClaimedTask } from "../store/tasks/update-claimed-task.js";
import { startTaskPoller } from "./start-task-poller.js";

const testDatabases = await openTestDatabases();
const logger = createLogger({ level: "silent" });

describe.each(testDatabases)("the task poller on $name", ({ name, database }) => {
  it("drains a backlog in batches of a quarter of its slots, and two pollers never poll a task twice", async () => {
    const tasks = 60;
    for (let index = 0; index < tasks; index += 1)
      await insertTask(database.db, {
        id: `video_poller_${name}_${index}`,
        userId: 1,
        tokenId: 1,
        model: "vid-a-2",
        createdTime: 1,
        nextPollAt: index,
      });
    const polled: string[] = [];
    // Polls started in one synchronous turn came from one claim.
    const claims: Array<{ poller: number; started: number }> = [];
    const current: Array<{ poller: number; started: number } | undefined> = [];
    const createService = (poller: number) => ({
      abortPolls() {},
      async pollClaimed(task: TaskRecord) {
        polled.push(task.id);
        let claim = current[poller];
        if (claim === undefined) {
          claim = { poller, started: 0 };
          claims.push(claim);
          current[poller] = claim;
          queueMicrotask(() => {
            current[poller] = undefined;
          });
        }
        claim.started += 1;
        // Answers arrive one by one, in separate turns of the event loop.
        await new Promise((resolve) => setTimeout(resolve, (polled.length % 3) + 1));
        return (await updateClaimedTask(
          database,
          task,
          { status: "completed", completedTime: 2, updatedTime: 2 },
          { onlyFromStatuses: ["queued", "in_progress"] },
        ))!;
      },
    });
    // Long interval: only the first wake and finished polls claim, so the batches are the poller's own.
    const options = { pollIntervalMs: 600_000, maxConcurrentPolls: 8, leaseMs: 600_000 };
    const pollers = [0, 1].map((poller) => startTaskPoller(database, createService(poller), logger, options));
    await expect.poll(() => polled.length, { timeout: 20_000 }).toBe(tasks);
    await Promise.all(pollers.map((poller) => poller.stop()));
    expect(new Set(polled).size).toBe(tasks);
    const rows = await database.db
      .selectFrom("tasks")
      .select("status")
      .where("id", "like", `video_poller_${name}_%`)
      .execute();
    expect(rows.every((row) => row.status === "completed")).toBe(true);
    // Each poller's first claim fills its 8 slots; later ones wait for 2 free slots, so they take 2 or more tasks,
    // but near the end of the backlog (claiming one task per finished poll would make ~44 claims of one).
    for (const poller of [0, 1]) expect(claims.find((claim) => claim.poller === poller)?.started).toBe(8);
    expect(claims.filter((claim) => claim.started === 1).length).toBeLessThanOrEqual(4);
    expect(claims.length).toBeLessThanOrEqual(2 + (tasks - 16) / 2 + 4);
  });
});

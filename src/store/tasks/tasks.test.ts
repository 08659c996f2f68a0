import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { findTaskForUser } from "./find-task-for-user.js";
import { insertTask } from "./insert-task.js";
import { updateTask } from "./update-task.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("tasks on $name", ({ database }) => {
  const { db } = database;

  it("inserts a queued task and finds it only for its owner", async () => {
    const task = await insertTask(db, {
      id: "video_insert",
      userId: 1,
      tokenId: 2,
      channelId: 3,
      model: "vid-a-2",
      reservationId: "request-1",
      requestBody: { prompt: "a cat", seconds: 5 },
      createdTime: 1000,
    });
    expect(task).toEqual({
      id: "video_insert",
      userId: 1,
      tokenId: 2,
      channelId: 3,
      model: "vid-a-2",
      upstreamTaskId: null,
      status: "queued",
      progress: 0,
      reservationId: "request-1",
      resultUrl: null,
      errorCode: null,
      errorMessage: null,
      requestBody: { prompt: "a cat", seconds: 5 },
      responseBody: null,
      createdTime: 1000,
      updatedTime: 1000,
      completedTime: null,
    });
    expect(await findTaskForUser(db, "video_insert", 1)).toEqual(task);
    expect(await findTaskForUser(db, "video_insert", 2)).toBeNull();
    expect(await findTaskForUser(db, "video_missing", 1)).toBeNull();
  });

  it("patches a task through its states", async () => {
    await insertTask(db, { id: "video_update", userId: 1, tokenId: 2, model: "vid-a-2", createdTime: 1000 });
    const running = await updateTask(db, "video_update", {
      upstreamTaskId: "upstream-9",
      status: "in_progress",
      progress: 40,
      responseBody: { task_status: "RUNNING" },
      updatedTime: 1010,
    });
    expect(running).toMatchObject({
      upstreamTaskId: "upstream-9",
      status: "in_progress",
      progress: 40,
      responseBody: { task_status: "RUNNING" },
      updatedTime: 1010,
      completedTime: null,
    });
    expect(await updateTask(db, "video_missing", { progress: 1, updatedTime: 1 })).toBeNull();
  });

  it("finishes a task once when two pollers race", async () => {
    await insertTask(db, { id: "video_race", userId: 1, tokenId: 2, model: "vid-a-2", createdTime: 1000 });
    const unfinished = ["queued", "in_progress"] as const;
    const attempts = await Promise.all([
      updateTask(
        db,
        "video_race",
        {
          status: "completed",
          progress: 100,
          resultUrl: "https://cdn.example/v.mp4",
          completedTime: 1100,
          updatedTime: 1100,
        },
        { onlyFromStatuses: unfinished },
      ),
      updateTask(
        db,
        "video_race",
        {
          status: "failed",
          errorCode: "DataInspectionFailed",
          errorMessage: "inappropriate",
          completedTime: 1101,
          updatedTime: 1101,
        },
        { onlyFromStatuses: unfinished },
      ),
    ]);
    expect(attempts.filter((attempt) => attempt !== null)).toHaveLength(1);
    const final = await findTaskForUser(db, "video_race", 1);
    expect(["completed", "failed"]).toContain(final?.status);
    expect(await updateTask(db, "video_race", { progress: 5, updatedTime: 1200 }, { onlyFromStatuses: [] })).toBeNull();
  });
});

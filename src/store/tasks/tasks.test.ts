import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { findTaskForUser } from "./find-task-for-user.js";
import { insertTask } from "./insert-task.js";
import { updateTask } from "./update-task.js";
import { claimDueTasks } from "./claim-due-tasks.js";
import { claimTaskForRefresh } from "./claim-task-for-refresh.js";
import { findTaskById } from "./find-task-by-id.js";
import { updateClaimedTask } from "./update-claimed-task.js";
import { findTaskByIdempotencyKey } from "./find-task-by-idempotency-key.js";
import { findFinishedTasksWithOpenReservations } from "./find-finished-tasks-with-open-reservations.js";
import { insertReservation } from "../quota/insert-reservation.js";
import { findUnsettledReservationsOlderThan } from "../quota/find-unsettled-reservations-older-than.js";
import { isUniqueViolation } from "../../channels/is-unique-violation.js";

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
      tokenName: "",
      channelId: 3,
      keyIndex: 0,
      model: "vid-a-2",
      upstreamModel: null,
      upstreamTaskId: null,
      status: "queued",
      upstreamStatus: null,
      progress: 0,
      reservationId: "request-1",
      reservedQuota: 0,
      unlimitedQuota: false,
      billingGroup: "default",
      quota: null,
      billedSeconds: null,
      resultUrl: null,
      errorCode: null,
      errorMessage: null,
      traceId: null,
      idempotencyKey: null,
      requestHash: null,
      requestBody: { prompt: "a cat", seconds: 5 },
      responseBody: null,
      createdTime: 1000,
      updatedTime: 1000,
      completedTime: null,
      nextPollAt: 0,
      pollFailures: 0,
      callbackState: null,
      callbackAttempts: 0,
      callbackNextAt: 0,
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

  it("claims due unfinished tasks in batches, each once, and pushes them out by the lease", async () => {
    // The tasks of the tests above are out of reach.
    await db.updateTable("tasks").set({ next_poll_at: 1e12 }).execute();
    for (let index = 0; index < 6; index += 1)
      await insertTask(db, {
        id: `video_claim_${index}`,
        userId: 7,
        tokenId: 2,
        model: "vid-a-2",
        createdTime: 1000,
        nextPollAt: index < 5 ? 100 + index : 10_000,
      });
    await updateTask(db, "video_claim_4", { status: "completed", updatedTime: 1001 });
    const [first, second] = await Promise.all([
      claimDueTasks(database, { nowMs: 500, leaseMs: 1000, limit: 2 }),
      claimDueTasks(database, { nowMs: 500, leaseMs: 1000, limit: 2 }),
    ]);
    const third = await claimDueTasks(database, { nowMs: 500, leaseMs: 1000, limit: 10 });
    const claimed = [...first, ...second, ...third].map((task) => task.id).sort();
    // Four due and unfinished (0-3); each claimed exactly once; the finished and the not-yet-due never.
    expect(claimed).toEqual(["video_claim_0", "video_claim_1", "video_claim_2", "video_claim_3"]);
    expect([...first, ...second, ...third].every((task) => task.nextPollAt === 1500)).toBe(true);
    expect(await claimDueTasks(database, { nowMs: 1499, leaseMs: 1000, limit: 10 })).toEqual([]);
    // The lease ran out (a poller that died): the tasks are due again.
    expect(await claimDueTasks(database, { nowMs: 1500, leaseMs: 1000, limit: 10 })).toHaveLength(4);
  });

  it("updates a claimed task as updateTask does and answers the task as stored", async () => {
    await db.updateTable("tasks").set({ next_poll_at: 1e12 }).execute();
    await insertTask(db, {
      id: "video_claimed",
      userId: 7,
      tokenId: 2,
      model: "vid-a-2",
      reservationId: "request-claimed",
      requestBody: { prompt: "a boat", seconds: "4" },
      createdTime: 1000,
      nextPollAt: 100,
    });
    const [claimed] = await claimDueTasks(database, { nowMs: 500, leaseMs: 1000, limit: 1 });
    expect(claimed?.id).toBe("video_claimed");
    const running = await updateClaimedTask(
      database,
      claimed!,
      {
        status: "in_progress",
        progress: 40,
        responseBody: { status: "in_progress" },
        nextPollAt: 900,
        updatedTime: 1001,
      },
      { onlyFromStatuses: ["queued", "in_progress"] },
    );
    expect(running).toEqual(await findTaskById(db, "video_claimed"));
    expect(running).toMatchObject({ status: "in_progress", progress: 40, nextPollAt: 900, updatedTime: 1001 });
    const finish = (from: typeof running) =>
      updateClaimedTask(
        database,
        from!,
        { status: "completed", quota: 250, billedSeconds: 4, completedTime: 1002, updatedTime: 1002 },
        { onlyFromStatuses: ["queued", "in_progress"] },
      );
    const [first, second] = await Promise.all([finish(running), finish(running)]);
    // The compare-and-swap: one winner, answered with the row as stored; the other finds it finished.
    expect([first, second].filter((task) => task !== null)).toHaveLength(1);
    expect(first ?? second).toEqual(await findTaskById(db, "video_claimed"));
    expect(
      await updateClaimedTask(database, running!, { progress: 1, updatedTime: 1 }, { onlyFromStatuses: [] }),
    ).toBeNull();
    expect((await findTaskById(db, "video_claimed"))?.progress).toBe(40);
  });

  it("claims one task for a client's refresh only when it is due and the caller's", async () => {
    await insertTask(db, {
      id: "video_refresh",
      userId: 8,
      tokenId: 2,
      model: "vid-a-2",
      createdTime: 1,
      nextPollAt: 50,
    });
    expect(await claimTaskForRefresh(db, { taskId: "video_refresh", userId: 9, nowMs: 60, leaseMs: 100 })).toBeNull();
    expect(await claimTaskForRefresh(db, { taskId: "video_refresh", userId: 8, nowMs: 40, leaseMs: 100 })).toBeNull();
    const claimed = await claimTaskForRefresh(db, { taskId: "video_refresh", userId: 8, nowMs: 60, leaseMs: 100 });
    expect(claimed?.nextPollAt).toBe(160);
    expect(await claimTaskForRefresh(db, { taskId: "video_refresh", userId: 8, nowMs: 61, leaseMs: 100 })).toBeNull();
  });

  it("keeps one task per user and idempotency key", async () => {
    await insertTask(db, {
      id: "video_key_1",
      userId: 10,
      tokenId: 2,
      model: "vid-a-2",
      createdTime: 1,
      idempotencyKey: "k",
    });
    await insertTask(db, {
      id: "video_key_2",
      userId: 11,
      tokenId: 2,
      model: "vid-a-2",
      createdTime: 1,
      idempotencyKey: "k",
    });
    const duplicate = await insertTask(db, {
      id: "video_key_3",
      userId: 10,
      tokenId: 2,
      model: "vid-a-2",
      createdTime: 1,
      idempotencyKey: "k",
    }).catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect((await findTaskByIdempotencyKey(db, 10, "k"))?.id).toBe("video_key_1");
    expect(await findTaskByIdempotencyKey(db, 10, "other")).toBeNull();
  });

  it("leaves a task's reservation to the task and finds finished tasks still holding one", async () => {
    await insertReservation(db, { id: "hold-task", tokenId: 2, userId: 12, reserved: 50, createdTime: 1 });
    await insertReservation(db, { id: "hold-lost", tokenId: 2, userId: 12, reserved: 50, createdTime: 1 });
    await insertTask(db, {
      id: "video_hold",
      userId: 12,
      tokenId: 2,
      model: "vid-a-2",
      createdTime: 1,
      reservationId: "hold-task",
    });
    const abandoned = await findUnsettledReservationsOlderThan(db, 100);
    expect(abandoned.map((reservation) => reservation.id)).toContain("hold-lost");
    expect(abandoned.map((reservation) => reservation.id)).not.toContain("hold-task");
    expect(await findFinishedTasksWithOpenReservations(db, 10)).toEqual([]);
    await updateTask(
      db,
      "video_hold",
      { status: "completed", quota: 40, updatedTime: 2 },
      { onlyFromStatuses: ["queued"] },
    );
    expect((await findFinishedTasksWithOpenReservations(db, 10)).map((task) => [task.id, task.quota])).toEqual([
      ["video_hold", 40],
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { insertTask } from "./insert-task.js";
import { listTasksForUser } from "./list-tasks-for-user.js";
import { updateTask } from "./update-task.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("listTasksForUser on $name", ({ database }) => {
  const { db } = database;

  it("pages one user's tasks newest first and filters by status and model", async () => {
    await insertTask(db, { id: "video_old", userId: 7, tokenId: 1, model: "vid-a-2", createdTime: 1000 });
    await insertTask(db, { id: "video_mid", userId: 7, tokenId: 1, model: "vid-b-1", createdTime: 1001 });
    await insertTask(db, { id: "video_new", userId: 7, tokenId: 1, model: "vid-a-2", createdTime: 1002 });
    await insertTask(db, { id: "video_other", userId: 8, tokenId: 2, model: "vid-a-2", createdTime: 1003 });
    await updateTask(db, "video_old", { status: "completed", progress: 100, completedTime: 1050, updatedTime: 1050 });

    const firstPage = await listTasksForUser(db, { userId: 7 }, { limit: 2, offset: 0 });
    expect(firstPage.total).toBe(3);
    expect(firstPage.tasks.map((task) => task.id)).toEqual(["video_new", "video_mid"]);
    const secondPage = await listTasksForUser(db, { userId: 7 }, { limit: 2, offset: 2 });
    expect(secondPage.tasks.map((task) => task.id)).toEqual(["video_old"]);

    const completed = await listTasksForUser(db, { userId: 7, status: "completed" }, { limit: 20, offset: 0 });
    expect(completed).toMatchObject({
      total: 1,
      tasks: [{ id: "video_old", status: "completed", completedTime: 1050 }],
    });
    const vidA = await listTasksForUser(db, { userId: 7, model: "vid-a-2" }, { limit: 20, offset: 0 });
    expect(vidA.tasks.map((task) => task.id)).toEqual(["video_new", "video_old"]);
    expect(await listTasksForUser(db, { userId: 9 }, { limit: 20, offset: 0 })).toEqual({ tasks: [], total: 0 });
  });
});

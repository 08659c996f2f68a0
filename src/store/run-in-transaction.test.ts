import { describe, expect, it } from "vitest";
import { runInTransaction } from "./run-in-transaction.js";
import { insertTestUser } from "./testing/insert-test-user.js";
import { openTestDatabases } from "./testing/open-test-databases.js";
import { findUserByUsername } from "./users/find-user-by-username.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("runInTransaction on $name", ({ database }) => {
  const { db } = database;

  it("commits when the callback resolves", async () => {
    const result = await runInTransaction(db, async (transaction) => {
      await insertTestUser(transaction, { username: "committed" });
      return "done";
    });
    expect(result).toBe("done");
    expect(await findUserByUsername(db, "committed")).not.toBeNull();
  });

  it("rolls back when the callback throws", async () => {
    await expect(
      runInTransaction(db, async (transaction) => {
        await insertTestUser(transaction, { username: "rolled back" });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await findUserByUsername(db, "rolled back")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { insertTestUser } from "../testing/insert-test-user.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { findUserByUsername } from "./find-user-by-username.js";
import { setUserPassword } from "./set-user-password.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("setUserPassword on $name", ({ database }) => {
  const { db } = database;

  it("replaces only that user's password hash", async () => {
    const user = await insertTestUser(db, { passwordHash: "old-hash" });
    const other = await insertTestUser(db, { passwordHash: "other-hash" });
    expect(await setUserPassword(db, user.username, "new-hash")).toBe(true);
    expect(await findUserByUsername(db, user.username)).toEqual({ ...user, passwordHash: "new-hash" });
    expect(await findUserByUsername(db, other.username)).toEqual(other);
  });

  it("reports an unknown username", async () => {
    expect(await setUserPassword(db, "no-such-user", "hash")).toBe(false);
  });
});

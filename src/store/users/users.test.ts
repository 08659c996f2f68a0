import { describe, expect, it } from "vitest";
import { insertTestUser } from "../testing/insert-test-user.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { findUserByAccessTokenHash } from "./find-user-by-access-token-hash.js";
import { findUserByUsername } from "./find-user-by-username.js";
import { insertUser } from "./insert-user.js";
import { setUserAccessToken } from "./set-user-access-token.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("users on $name", ({ database }) => {
  const { db } = database;

  it("inserts a user with defaults and finds it by id and username", async () => {
    const user = await insertUser(db, { username: "alice", passwordHash: "hash", createdTime: 1_700_000_001 });
    expect(user).toEqual({
      id: expect.any(Number),
      username: "alice",
      passwordHash: "hash",
      displayName: "alice",
      role: "user",
      group: "default",
      status: 1,
      accessTokenHash: null,
      accessTokenEncrypted: null,
      createdTime: 1_700_000_001,
      // Without a first balance the wallet is unlimited (root, and accounts from before wallets).
      quota: 0,
      usedQuota: 0,
      quotaUnlimited: true,
      allowedGroups: [],
    });
    expect(await findUserByUsername(db, "alice")).toEqual(user);
    expect(await findUserByUsername(db, "nobody")).toBeNull();
  });

  it("rejects a duplicate username", async () => {
    await insertUser(db, { username: "bob", passwordHash: "hash", createdTime: 1 });
    await expect(insertUser(db, { username: "bob", passwordHash: "other", createdTime: 2 })).rejects.toThrow();
  });

  it("sets, finds and revokes an access token", async () => {
    const user = await insertTestUser(db, { role: "root" });
    expect(await setUserAccessToken(db, user.id, { accessTokenHash: "h1", accessTokenEncrypted: "e1" })).toBe(true);
    expect(await findUserByAccessTokenHash(db, "h1")).toMatchObject({
      id: user.id,
      role: "root",
      accessTokenEncrypted: "e1",
    });
    expect(await setUserAccessToken(db, user.id, { accessTokenHash: null, accessTokenEncrypted: null })).toBe(true);
    expect(await findUserByAccessTokenHash(db, "h1")).toBeNull();
    expect(await setUserAccessToken(db, user.id + 1000, { accessTokenHash: "h2", accessTokenEncrypted: "e2" })).toBe(
      false,
    );
  });

  it("keeps access token hashes unique", async () => {
    const first = await insertTestUser(db);
    const second = await insertTestUser(db);
    await setUserAccessToken(db, first.id, { accessTokenHash: "same", accessTokenEncrypted: "e" });
    await expect(
      setUserAccessToken(db, second.id, { accessTokenHash: "same", accessTokenEncrypted: "e" }),
    ).rejects.toThrow();
  });
});

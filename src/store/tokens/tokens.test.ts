import { describe, expect, it } from "vitest";
import { insertTestToken } from "../testing/insert-test-token.js";
import { insertTestUser } from "../testing/insert-test-user.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { countTokensForUser } from "./count-tokens-for-user.js";
import { deleteTokenForUser } from "./delete-token-for-user.js";
import { deleteTokensForUser } from "./delete-tokens-for-user.js";
import { findTokenByIdForUser } from "./find-token-by-id-for-user.js";
import { findTokenAndOwnerByKeyHash } from "./find-token-and-owner-by-key-hash.js";
import { insertToken } from "./insert-token.js";
import { insertTokens } from "./insert-tokens.js";
import { listAllTokensForUser } from "./list-all-tokens-for-user.js";
import { listRateLimitedTokensForUser } from "./list-rate-limited-tokens-for-user.js";
import { listTokensForUser } from "./list-tokens-for-user.js";
import { touchTokensAccessedTime } from "./touch-tokens-accessed-time.js";
import { updateTokenStatus } from "./update-token-status.js";
import { updateToken } from "./update-token.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("tokens on $name", ({ database }) => {
  const { db } = database;

  it("inserts a token with defaults, as booleans and numbers", async () => {
    const user = await insertTestUser(db);
    const token = await insertToken(db, {
      userId: user.id,
      name: "default token",
      keyHash: "key-hash-defaults",
      keyEncrypted: "encrypted",
      createdTime: 1_700_000_000,
    });
    expect(token).toEqual({
      id: expect.any(Number),
      userId: user.id,
      name: "default token",
      keyHash: "key-hash-defaults",
      keyEncrypted: "encrypted",
      status: 1,
      remainQuota: 0,
      usedQuota: 0,
      unlimitedQuota: false,
      modelLimitsEnabled: false,
      modelLimits: "",
      allowIps: "",
      group: "",
      crossGroupRetry: false,
      rpmLimit: 0,
      tpmLimit: 0,
      expiredTime: -1,
      createdTime: 1_700_000_000,
      accessedTime: 1_700_000_000,
    });
  });

  it("stores every field and bigint quotas beyond 32 bits", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, {
      remainQuota: 9_000_000_000_000,
      unlimitedQuota: true,
      modelLimitsEnabled: true,
      modelLimits: "gpt-4o,gmx-3.5-flash",
      allowIps: "10.0.0.0/8\n127.0.0.1",
      group: "auto",
      crossGroupRetry: true,
      rpmLimit: 60,
      tpmLimit: 100_000,
      expiredTime: 1_800_000_000,
      status: 2,
    });
    const found = await findTokenByIdForUser(db, token.id, user.id);
    expect(found).toEqual(token);
    expect(found).toMatchObject({
      remainQuota: 9_000_000_000_000,
      unlimitedQuota: true,
      modelLimitsEnabled: true,
      crossGroupRetry: true,
      rpmLimit: 60,
      tpmLimit: 100_000,
      group: "auto",
      status: 2,
    });
    expect(typeof found?.remainQuota).toBe("number");
  });

  it("rejects a token for a user that does not exist (foreign key)", async () => {
    await expect(insertTestToken(db, 987_654_321)).rejects.toThrow();
  });

  it("inserts a batch in one statement, in id order", async () => {
    const user = await insertTestUser(db);
    const tokens = await insertTokens(
      db,
      ["a", "b", "c"].map((name) => ({
        userId: user.id,
        name,
        keyHash: `batch-${name}-${user.id}`,
        keyEncrypted: `encrypted-${name}`,
        remainQuota: 100,
        createdTime: 5,
      })),
    );
    expect(tokens.map((token) => token.name)).toEqual(["a", "b", "c"]);
    expect(tokens[0]!.id).toBeLessThan(tokens[2]!.id);
    expect(await insertTokens(db, [])).toEqual([]);
  });

  it("inserts no token of a batch when one key hash is a duplicate", async () => {
    const user = await insertTestUser(db);
    await expect(
      insertTokens(db, [
        { userId: user.id, name: "x", keyHash: "duplicate-in-batch", keyEncrypted: "e", createdTime: 1 },
        { userId: user.id, name: "y", keyHash: "duplicate-in-batch", keyEncrypted: "e", createdTime: 1 },
      ]),
    ).rejects.toThrow();
    expect(await countTokensForUser(db, user.id)).toBe(0);
  });

  it("reports another user's token as not found", async () => {
    const owner = await insertTestUser(db);
    const stranger = await insertTestUser(db);
    const token = await insertTestToken(db, owner.id);
    expect(await findTokenByIdForUser(db, token.id, stranger.id)).toBeNull();
    expect(await updateToken(db, token.id, stranger.id, { name: "stolen" })).toBeNull();
    expect(await deleteTokenForUser(db, token.id, stranger.id)).toBe(false);
    expect(await deleteTokensForUser(db, [token.id], stranger.id)).toBe(0);
    expect(await findTokenByIdForUser(db, token.id, owner.id)).toMatchObject({ name: "test token" });
  });

  it("finds a token by key hash, with its owner's group and status", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { keyHash: "lookup-hash" });
    expect(await findTokenAndOwnerByKeyHash(db, "lookup-hash")).toEqual({
      token,
      ownerGroup: user.group,
      ownerStatus: user.status,
      ownerWalletUnlimited: true,
      ownerRole: "user",
      ownerAllowedGroups: [],
    });
    expect(await findTokenAndOwnerByKeyHash(db, "missing-hash")).toBeNull();
  });

  it("lists a page newest first, counts, and lists all", async () => {
    const user = await insertTestUser(db);
    const created = [];
    for (let index = 0; index < 5; index += 1) {
      created.push(await insertTestToken(db, user.id, { name: `token ${index}` }));
    }
    const other = await insertTestUser(db);
    await insertTestToken(db, other.id);

    const firstPage = await listTokensForUser(db, user.id, { limit: 2, offset: 0 });
    expect(firstPage.map((token) => token.name)).toEqual(["token 4", "token 3"]);
    const lastPage = await listTokensForUser(db, user.id, { limit: 2, offset: 4 });
    expect(lastPage.map((token) => token.name)).toEqual(["token 0"]);
    expect(await countTokensForUser(db, user.id)).toBe(5);
    const all = await listAllTokensForUser(db, user.id);
    expect(all.map((token) => token.id)).toEqual(created.map((token) => token.id).reverse());
  });

  it("lists only the user's tokens with an RPM or a TPM limit, newest first", async () => {
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
    const requestsLimited = await insertTestToken(db, user.id, { rpmLimit: 10 });
    await insertTestToken(db, user.id);
    const tokensLimited = await insertTestToken(db, user.id, { tpmLimit: 1_000 });
    await insertTestToken(db, other.id, { rpmLimit: 10, tpmLimit: 1_000 });
    const limited = await listRateLimitedTokensForUser(db, user.id);
    expect(limited.map((token) => token.id)).toEqual([tokensLimited.id, requestsLimited.id]);
  });

  it("patches only the given fields", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 10, allowIps: "1.2.3.4" });
    const updated = await updateToken(db, token.id, user.id, {
      name: "renamed",
      unlimitedQuota: true,
      modelLimitsEnabled: true,
      modelLimits: "gpt-4o",
      crossGroupRetry: true,
      group: "vip",
      expiredTime: 1_900_000_000,
      remainQuota: 20,
      status: 2,
    });
    expect(updated).toEqual({
      ...token,
      name: "renamed",
      unlimitedQuota: true,
      modelLimitsEnabled: true,
      modelLimits: "gpt-4o",
      crossGroupRetry: true,
      group: "vip",
      expiredTime: 1_900_000_000,
      remainQuota: 20,
      status: 2,
    });
    expect(await updateToken(db, token.id, user.id, {})).toEqual(updated);
    expect(await updateToken(db, token.id, user.id, { allowIps: "" })).toMatchObject({ allowIps: "", name: "renamed" });
  });

  it("deletes one token and a batch, counting only owned ones", async () => {
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
    const [first, second, third] = await Promise.all([
      insertTestToken(db, user.id),
      insertTestToken(db, user.id),
      insertTestToken(db, user.id),
    ]);
    const foreign = await insertTestToken(db, other.id);
    expect(await deleteTokenForUser(db, first!.id, user.id)).toBe(true);
    expect(await deleteTokenForUser(db, first!.id, user.id)).toBe(false);
    expect(await deleteTokensForUser(db, [first!.id, second!.id, third!.id, foreign.id, third!.id], user.id)).toBe(2);
    expect(await deleteTokensForUser(db, [], user.id)).toBe(0);
    expect(await countTokensForUser(db, user.id)).toBe(0);
    expect(await countTokensForUser(db, other.id)).toBe(1);
  });

  it("updates a status, optionally only from a given status", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id);
    expect(await updateTokenStatus(db, token.id, 3, { onlyFromStatus: 2 })).toBe(false);
    expect(await updateTokenStatus(db, token.id, 3, { onlyFromStatus: 1 })).toBe(true);
    expect(await updateTokenStatus(db, token.id, 2)).toBe(true);
    expect(await updateTokenStatus(db, token.id + 100_000, 2)).toBe(false);
    expect((await findTokenByIdForUser(db, token.id, user.id))?.status).toBe(2);
  });

  it("touches accessed time for many tokens in one statement, never backwards", async () => {
    const user = await insertTestUser(db);
    const first = await insertTestToken(db, user.id, { createdTime: 100 });
    const second = await insertTestToken(db, user.id, { createdTime: 100 });
    expect(await touchTokensAccessedTime(db, [first.id, second.id, first.id], 200, database.dialect)).toBe(2);
    expect(await touchTokensAccessedTime(db, [first.id], 150, database.dialect)).toBe(0);
    expect(await touchTokensAccessedTime(db, [], 300, database.dialect)).toBe(0);
    expect((await findTokenByIdForUser(db, first.id, user.id))?.accessedTime).toBe(200);
    expect((await findTokenByIdForUser(db, second.id, user.id))?.accessedTime).toBe(200);
  });

  it("deletes tokens with their user", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id);
    await db.deleteFrom("users").where("id", "=", user.id).execute();
    expect(await findTokenAndOwnerByKeyHash(db, token.keyHash)).toBeNull();
  });
});

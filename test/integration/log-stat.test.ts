import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageLogEntry } from "../../src/billing/billing-service.js";
import { createBillingService } from "../../src/billing/create-billing-service.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "./helpers/create-signed-in-user.js";
import { createTokenForTest } from "./helpers/create-token-for-test.js";

const testDatabases = await openTestDatabases();
const dayOne = 1_767_225_600; // 2026-01-01T00:00:00Z
const dayTwo = dayOne + 86_400;
const hour = 3_600;

describe.each(testDatabases)("usage statistics and the administrators' log on $name", ({ database }) => {
  let gateway: TestGateway;
  let owner: SignedInUser;
  let stranger: SignedInUser;
  let administrator: SignedInUser;
  let firstTokenId: number;
  let secondTokenId: number;

  beforeAll(async () => {
    gateway = await startTestGateway({ database });
    owner = await createSignedInUser(gateway);
    stranger = await createSignedInUser(gateway);
    administrator = await createSignedInUser(gateway, { role: "admin" });
    firstTokenId = (await createTokenForTest(owner.client, { name: "first" })).id;
    secondTokenId = (await createTokenForTest(owner.client, { name: "second" })).id;
    const strangerTokenId = (await createTokenForTest(stranger.client)).id;

    // Rows go in the way the relay writes them: through the billing service's batched recordUsage.
    const clock = { now: dayOne };
    const billing = createBillingService(
      { ...gateway.gateway.context, now: () => clock.now },
      { flushIntervalMs: 60_000 },
    );
    const entry = (
      userId: number,
      tokenId: number,
      requestId: string,
      overrides: Partial<UsageLogEntry> = {},
    ): UsageLogEntry => ({
      userId,
      tokenId,
      tokenName: "t",
      model: "model-a",
      channelId: 3,
      requestId,
      isStream: false,
      usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 },
      quota: 100,
      latencyMs: 20,
      status: "success",
      ...overrides,
    });
    const rows: Array<[number, UsageLogEntry]> = [
      [dayOne + 2 * hour + 10, entry(owner.user.id, firstTokenId, "s1")],
      [
        dayOne + 2 * hour + 1_800,
        entry(owner.user.id, firstTokenId, "s2", {
          status: "error",
          errorMessage: "upstream failed",
          channelId: 4,
          usage: { promptTokens: 4, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0 },
          quota: 50,
        }),
      ],
      [dayOne + 5 * hour, entry(owner.user.id, secondTokenId, "s3", { model: "model-b", quota: 30 })],
      [dayTwo + hour, entry(owner.user.id, firstTokenId, "s4", { quota: 20 })],
      [dayOne + 3 * hour, entry(stranger.user.id, strangerTokenId, "s5", { quota: 7 })],
    ];
    for (const [time, row] of rows) {
      clock.now = time;
      billing.recordUsage(row);
    }
    await billing.flush();
  });
  afterAll(async () => gateway.close());

  const statistics = (client: SignedInUser["client"], query: Record<string, string | number>) =>
    client.management.GET("/api/log/stat", { params: { query } });

  it("sums the caller's usage by UTC day and model, with totals", async () => {
    const answer = await statistics(owner.client, { start_time: dayOne, end_time: dayTwo + 86_400 });
    expect(answer.response.status).toBe(200);
    expect(answer.data!.data).toEqual({
      granularity: "day",
      start_time: dayOne,
      end_time: dayTwo + 86_400,
      items: [
        { time: dayOne, model: "model-a", requests: 2, errors: 1, prompt_tokens: 14, completion_tokens: 7, quota: 150 },
        { time: dayOne, model: "model-b", requests: 1, errors: 0, prompt_tokens: 10, completion_tokens: 5, quota: 30 },
        { time: dayTwo, model: "model-a", requests: 1, errors: 0, prompt_tokens: 10, completion_tokens: 5, quota: 20 },
      ],
      totals: { requests: 4, errors: 1, prompt_tokens: 34, completion_tokens: 17, quota: 200 },
    });
  });

  it("buckets by UTC hour and filters by token and model", async () => {
    const byHour = await statistics(owner.client, { granularity: "hour", start_time: dayOne, end_time: dayTwo });
    expect(byHour.data!.data.items.map((item) => [item.time, item.model, item.requests])).toEqual([
      [dayOne + 2 * hour, "model-a", 2],
      [dayOne + 5 * hour, "model-b", 1],
    ]);
    const range = { start_time: dayOne, end_time: dayTwo + 86_400 };
    const second = await statistics(owner.client, { ...range, token_id: secondTokenId });
    expect(second.data!.data.totals).toMatchObject({ requests: 1, quota: 30 });
    const modelA = await statistics(owner.client, { ...range, model: "model-a" });
    expect(modelA.data!.data.totals).toMatchObject({ requests: 3, quota: 170 });
  });

  it("covers every user for administrators only (scope=all), optionally one user", async () => {
    const range = { start_time: dayOne, end_time: dayTwo + 86_400 };
    expect((await statistics(owner.client, { ...range, scope: "all" })).response.status).toBe(403);
    expect((await statistics(owner.client, { ...range, user_id: stranger.user.id })).response.status).toBe(403);
    const everyone = await statistics(administrator.client, { ...range, scope: "all" });
    expect(everyone.data!.data.totals).toMatchObject({ requests: 5, quota: 207 });
    const one = await statistics(administrator.client, { ...range, scope: "all", user_id: stranger.user.id });
    expect(one.data!.data.totals).toMatchObject({ requests: 1, quota: 7 });
    // An administrator's own view is their own usage: none here.
    const own = await statistics(administrator.client, range);
    expect(own.data!.data).toMatchObject({ items: [], totals: { requests: 0, quota: 0 } });
  });

  it("refuses an empty or too long range", async () => {
    const empty = await statistics(owner.client, { start_time: dayTwo, end_time: dayOne });
    expect(empty.response.status).toBe(400);
    const tooLong = await statistics(owner.client, { granularity: "hour", start_time: 0, end_time: dayOne });
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.error).toEqual({ success: false, message: "time range too long: at most 31 days by hour" });
  });

  it("lists every user's rows for administrators, with user, channel, status and request id filters", async () => {
    const list = (client: SignedInUser["client"], query: Record<string, string | number>) =>
      client.management.GET("/api/log/", { params: { query } });
    expect((await list(owner.client, {})).response.status).toBe(403);
    const all = await list(administrator.client, {});
    expect(all.data!.data.total).toBe(5);
    expect(all.data!.data.items[0]).toMatchObject({
      request_id: "s4",
      user_id: owner.user.id,
      username: owner.username,
    });
    const ids = async (query: Record<string, string | number>) =>
      (await list(administrator.client, query)).data!.data.items.map((item) => item.request_id);
    expect(await ids({ username: stranger.username })).toEqual(["s5"]);
    expect(await ids({ user_id: owner.user.id, model: "model-a" })).toEqual(["s4", "s2", "s1"]);
    expect(await ids({ channel_id: 4 })).toEqual(["s2"]);
    expect(await ids({ status: "error" })).toEqual(["s2"]);
    expect(await ids({ request_id: "s3" })).toEqual(["s3"]);
    expect(await ids({ token_id: secondTokenId })).toEqual(["s3"]);
    expect(await ids({ start_time: dayTwo })).toEqual(["s4"]);
    expect(await ids({ username: "nobody-by-this-name" })).toEqual([]);
  });
});

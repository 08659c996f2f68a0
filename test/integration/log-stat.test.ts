import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageLogEntry } from "../../src/billing/billing-service.js";
import { createBillingService } from "../../src/billing/create-billing-service.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { deleteUsageLogsCreatedBefore } from "../../src/store/usage-logs/delete-expired-usage.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";

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
      group: "default",
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
      [dayOne + 5 * hour, entry(owner.user.id, secondTokenId, "s3", { model: "model-b", quota: 30, group: "vip" })],
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
        {
          time: dayOne,
          model: "model-a",
          requests: 2,
          errors: 1,
          prompt_tokens: 14,
          completion_tokens: 7,
          cached_tokens: 0,
          cache_write_tokens: 0,
          quota: 150,
        },
        {
          time: dayOne,
          model: "model-b",
          requests: 1,
          errors: 0,
          prompt_tokens: 10,
          completion_tokens: 5,
          cached_tokens: 0,
          cache_write_tokens: 0,
          quota: 30,
        },
        {
          time: dayTwo,
          model: "model-a",
          requests: 1,
          errors: 0,
          prompt_tokens: 10,
          completion_tokens: 5,
          cached_tokens: 0,
          cache_write_tokens: 0,
          quota: 20,
        },
      ],
      totals: {
        requests: 4,
        errors: 1,
        prompt_tokens: 34,
        completion_tokens: 17,
        cached_tokens: 0,
        cache_write_tokens: 0,
        quota: 200,
      },
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

  it("ranks every user by spend for administrators only, with their names (GET /api/log/stat/users)", async () => {
    const byUser = (client: SignedInUser["client"], query: Record<string, number>) =>
      client.management.GET("/api/log/stat/users", { params: { query } });
    const range = { start_time: dayOne, end_time: dayTwo + 86_400 };
    expect((await byUser(owner.client, range)).response.status).toBe(403);
    const ranked = await byUser(administrator.client, range);
    expect(ranked.response.status).toBe(200);
    expect(ranked.data!.data).toEqual({
      start_time: dayOne,
      end_time: dayTwo + 86_400,
      items: [
        {
          user_id: owner.user.id,
          username: owner.username,
          requests: 4,
          errors: 1,
          prompt_tokens: 34,
          completion_tokens: 17,
          cached_tokens: 0,
          cache_write_tokens: 0,
          quota: 200,
        },
        {
          user_id: stranger.user.id,
          username: stranger.username,
          requests: 1,
          errors: 0,
          prompt_tokens: 10,
          completion_tokens: 5,
          cached_tokens: 0,
          cache_write_tokens: 0,
          quota: 7,
        },
      ],
    });
    const first = await byUser(administrator.client, { ...range, limit: 1 });
    expect(first.data!.data.items.map((item) => item.user_id)).toEqual([owner.user.id]);
    // Day two holds one request of the owner only; the administrator, who spent nothing, is never listed.
    const dayTwoOnly = await byUser(administrator.client, { start_time: dayTwo, end_time: dayTwo + 86_400 });
    expect(dayTwoOnly.data!.data.items.map((item) => [item.user_id, item.quota])).toEqual([[owner.user.id, 20]]);
    const tooLong = await byUser(administrator.client, { start_time: 0, end_time: dayOne });
    expect(tooLong.response.status).toBe(400);
  });

  it("refuses an empty or too long range", async () => {
    const empty = await statistics(owner.client, { start_time: dayTwo, end_time: dayOne });
    expect(empty.response.status).toBe(400);
    const tooLong = await statistics(owner.client, { granularity: "hour", start_time: 0, end_time: dayOne });
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.error).toEqual({ success: false, message: "time range too long: at most 31 days by hour" });
  });

  it("lists every user's rows for administrators, with user, channel, group, status and request id filters", async () => {
    const list = (client: SignedInUser["client"], query: Record<string, string | number>) =>
      client.management.GET("/api/log/", { params: { query } });
    expect((await list(owner.client, {})).response.status).toBe(403);
    const all = await list(administrator.client, {});
    expect(all.data!.data).toMatchObject({ next_cursor: null, page_size: 20 });
    expect(all.data!.data.items).toHaveLength(5);
    expect(all.data!.data.items[0]).toMatchObject({
      request_id: "s4",
      user_id: owner.user.id,
      username: owner.username,
      group: "default",
    });
    const ids = async (query: Record<string, string | number>) =>
      (await list(administrator.client, query)).data!.data.items.map((item) => item.request_id);
    expect(await ids({ username: stranger.username })).toEqual(["s5"]);
    expect(await ids({ user_id: owner.user.id, model: "model-a" })).toEqual(["s4", "s2", "s1"]);
    expect(await ids({ channel_id: 4 })).toEqual(["s2"]);
    expect(await ids({ group: "vip" })).toEqual(["s3"]);
    expect(await ids({ status: "error" })).toEqual(["s2"]);
    expect(await ids({ request_id: "s3" })).toEqual(["s3"]);
    expect(await ids({ token_id: secondTokenId })).toEqual(["s3"]);
    expect(await ids({ start_time: dayTwo })).toEqual(["s4"]);
    expect(await ids({ username: "nobody-by-this-name" })).toEqual([]);
  });

  it("pages the administrators' log by cursor until next_cursor is null", async () => {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await administrator.client.management.GET("/api/log/", {
        params: { query: { size: 2, ...(cursor ? { cursor } : {}) } },
      });
      expect(page.response.status).toBe(200);
      seen.push(...page.data!.data.items.map((item) => item.request_id));
      cursor = page.data!.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual(["s4", "s3", "s5", "s2", "s1"]);
    const bad = await administrator.client.management.GET("/api/log/", { params: { query: { cursor: "x" } } });
    expect(bad.response.status).toBe(400);
  });

  it("exports a filtered range as CSV, streamed, for administrators only", async () => {
    const exportCsv = (accessToken: string, query: string) =>
      fetch(`${gateway.url}/api/log/export?${query}`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect((await exportCsv(owner.accessToken, "")).status).toBe(403);
    const answer = await exportCsv(administrator.accessToken, `user_id=${owner.user.id}&end_time=${dayTwo}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toBe('attachment; filename="usage-log.csv"');
    const lines = (await answer.text()).trimEnd().split("\n");
    expect(lines[0]).toBe(
      "id,created_time,user_id,username,token_id,token_name,model,channel_id,group,request_id,is_stream," +
        "prompt_tokens,completion_tokens,cached_tokens,cache_write_tokens,reasoning_tokens,quota,latency_ms,status,error_message",
    );
    expect(lines.slice(1).map((line) => line.split(",")[9])).toEqual(["s3", "s2", "s1"]);
    expect(lines[2]).toContain(",4,default,s2,false,4,2,0,0,0,50,20,error,upstream failed");
  });

  it("shows one row's detail with its channel to administrators only", async () => {
    const [row] = (await administrator.client.management.GET("/api/log/", { params: { query: { request_id: "s2" } } }))
      .data!.data.items;
    const detail = await administrator.client.management.GET("/api/log/{id}", {
      params: { path: { id: row!.id } },
    });
    expect(detail.data!.data).toEqual({ ...row, channel_name: null });
    const forbidden = await owner.client.management.GET("/api/log/{id}", { params: { path: { id: row!.id } } });
    expect(forbidden.response.status).toBe(403);
    const missing = await administrator.client.management.GET("/api/log/{id}", {
      params: { path: { id: 99_999_999 } },
    });
    expect(missing.response.status).toBe(404);
  });

  it("answers from the hourly rollups alone: the same statistics once the raw rows are past their retention", async () => {
    const range = { start_time: dayOne, end_time: dayTwo + 86_400, scope: "all" };
    const before = (await statistics(administrator.client, range)).data!.data;
    const { database } = gateway.gateway.context;
    while ((await deleteUsageLogsCreatedBefore(database, dayTwo + 86_400, 100)).rows > 0);
    expect(
      (await administrator.client.management.GET("/api/log/", { params: { query: {} } })).data!.data.items,
    ).toEqual([]);
    expect((await statistics(administrator.client, range)).data!.data).toEqual(before);
    expect(before.totals.requests).toBe(5);
    const byUser = await administrator.client.management.GET("/api/log/stat/users", {
      params: { query: { start_time: dayOne, end_time: dayTwo + 86_400 } },
    });
    expect(byUser.data!.data.items.map((item) => [item.user_id, item.requests, item.quota])).toEqual([
      [owner.user.id, 4, 200],
      [stranger.user.id, 1, 7],
    ]);
  });

  it("widens a range to whole UTC hours, as the rollups hold hours", async () => {
    const answer = await statistics(owner.client, {
      granularity: "hour",
      start_time: dayOne + 2 * hour + 1_000,
      end_time: dayOne + 2 * hour + 1_001,
    });
    expect(answer.data!.data).toMatchObject({
      start_time: dayOne + 2 * hour,
      end_time: dayOne + 3 * hour,
      totals: { requests: 2 },
    });
  });
});

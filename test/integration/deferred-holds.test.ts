import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// On PostgreSQL a whole answer on a balance many times its worst case goes upstream before its hold, which its
// settlement's statement takes (src/store/quota/hold-deferral.ts). What the database holds while the upstream works
// shows which path a request took; a balance spent meanwhile gets the hold's refusal and no answer.
const testDatabases = await openTestDatabases();
const database = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe("holds deferred to the settlement, on postgres", () => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [{ name: "deferred", type: "openai", base_url: upstream.url, key: "k", models: ["model-d"] }],
        pricing: { "model-d": { input: 2, output: 4 } },
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const readToken = async (tokenId: number) => {
    const row = await database.db
      .selectFrom("tokens")
      .select(["remain_quota", "used_quota"])
      .where("id", "=", tokenId)
      .executeTakeFirstOrThrow();
    const reservations = await database.db
      .selectFrom("quota_reservations")
      .select(["settled", "reserved", "actual"])
      .where("token_id", "=", tokenId)
      .execute();
    const usage = await database.db
      .selectFrom("usage_logs")
      .select(["quota", "status"])
      .where("token_id", "=", tokenId)
      .execute();
    return { remain: Number(row.remain_quota), used: Number(row.used_quota), reservations, usage };
  };

  /** Sends a chat request and, once the upstream has it (it answers 300 ms later), runs `meanwhile`. */
  const send = async (key: string, meanwhile: () => Promise<void>, stream = false) => {
    const arrived = upstream.requests.length;
    upstream.setFaults({ latencyMs: 300 });
    const answer = fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "model-d", stream, messages: [{ role: "user", content: "one two three" }] }),
    });
    for (let waited = 0; upstream.requests.length === arrived && waited < 5_000; waited += 5) await sleep(5);
    expect(upstream.requests.length).toBe(arrived + 1);
    await meanwhile();
    const response = await answer;
    return { status: response.status, body: await response.text() };
  };

  it("holds the first request before its upstream call, the next ones with their settlement, billing each once", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    // Nothing read of this key's balance yet: an ordinary hold, taken before the upstream call.
    const first = await send(key, async () => {
      expect((await readToken(id)).reservations).toEqual([{ settled: 0, reserved: expect.any(Number), actual: null }]);
    });
    expect(first.status).toBe(200);
    // Now the balance is known to cover many requests: no row while the upstream works, one settled row after.
    const second = await send(key, async () => {
      expect((await readToken(id)).reservations.map((row) => row.settled)).toEqual([1]);
    });
    expect(second.status).toBe(200);
    const after = await readToken(id);
    expect(after.reservations.map((row) => row.settled)).toEqual([1, 1]);
    expect(after.usage.map((row) => row.status)).toEqual(["success", "success"]);
    const spent = after.usage.reduce((sum, row) => sum + Number(row.quota), 0);
    expect(spent).toBeGreaterThan(0);
    expect(after.reservations.reduce((sum, row) => sum + Number(row.actual), 0)).toBe(spent);
    expect([after.remain, after.used]).toEqual([1_000_000 - spent, spent]);
  });

  it("holds a stream before its upstream call whatever the balance: its events go out before its settlement", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    expect((await send(key, async () => {})).status).toBe(200);
    const streamed = await send(
      key,
      async () => {
        expect((await readToken(id)).reservations.map((row) => row.settled)).toEqual([1, 0]);
      },
      true,
    );
    expect(streamed.status).toBe(200);
    expect(streamed.body).toContain("data: [DONE]");
  });

  it("refuses a deferred request whose balance was spent meanwhile, withholding its answer, and holds the next first", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    expect((await send(key, async () => {})).status).toBe(200);
    const before = await readToken(id);
    // Another instance (or an operator) leaves the token 10 units while the upstream works on a deferred request.
    const refused = await send(key, async () => {
      expect((await readToken(id)).reservations).toHaveLength(1);
      await sql`update tokens set remain_quota = 10 where id = ${id}`.execute(database.db);
    });
    expect(refused.status).toBe(402);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: "insufficient_quota" });
    expect(refused.body).not.toContain("choices");
    const after = await readToken(id);
    // Nothing charged, nothing written: the 10 left, one ledger row and one usage row, both of the first request.
    expect([after.remain, after.used]).toEqual([10, before.used]);
    expect(after.reservations).toHaveLength(1);
    expect(after.usage).toHaveLength(1);
    // The refusal read the balance: the next request is refused by its hold, before any upstream call.
    const upstreamCalls = upstream.requests.length;
    const next = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "model-d", messages: [{ role: "user", content: "one two three" }] }),
    });
    expect(next.status).toBe(402);
    expect(upstream.requests.length).toBe(upstreamCalls);
  });
});

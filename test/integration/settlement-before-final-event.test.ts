import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// A client that received a stream's final event ([DONE], response.completed) was billed: the settlement commits
// before that event is written. On PostgreSQL a test transaction holding the token's row makes the settlement wait,
// and the final event must wait with it.
const testDatabases = await openTestDatabases();
const database = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe("a stream's settlement commits before its final event, on postgres", () => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [{ name: "streams", type: "openai", base_url: upstream.url, key: "k", models: ["model-s"] }],
        pricing: { "model-s": { input: 2, output: 4 } },
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const surfaces = [
    {
      name: "chat completions ([DONE])",
      path: "/v1/chat/completions",
      body: { model: "model-s", stream: true, messages: [{ role: "user", content: "one two three four" }] },
      lastBeforeFinal: '"finish_reason":"stop"',
      final: "data: [DONE]",
    },
    {
      name: "Responses (response.completed)",
      path: "/v1/responses",
      body: { model: "model-s", stream: true, input: "one two three four" },
      lastBeforeFinal: "event: response.output_text.done",
      final: "event: response.completed",
    },
  ];

  it.each(surfaces)("$name", { timeout: 30_000 }, async ({ path, body, lastBeforeFinal, final }) => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    upstream.setFaults({ chunkDelayMs: 100 });
    const answer = await fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += decoder.decode(value, { stream: true });
      }
      ended = true;
    })();
    const waitFor = async (text: string) => {
      while (!received.includes(text) && !ended) await sleep(10);
    };

    // The hold is taken (the first event came); now the token's row is held by another transaction.
    await waitFor("data: ");
    let releaseRow!: () => void;
    const rowReleased = new Promise<void>((resolve) => (releaseRow = resolve));
    let rowHeld!: () => void;
    const rowIsHeld = new Promise<void>((resolve) => (rowHeld = resolve));
    const holding = database.db.transaction().execute(async (transaction) => {
      await sql`select id from tokens where id = ${id} for update`.execute(transaction);
      rowHeld();
      await rowReleased;
    });
    await rowIsHeld;
    try {
      await waitFor(lastBeforeFinal);
      expect(received).toContain(lastBeforeFinal);
      // The upstream has ended; the settlement waits on the row, and the final event waits on the settlement.
      await sleep(1_000);
      expect(received).not.toContain(final);
      const beforeSettlement = await sql<{
        used_quota: number;
      }>`select used_quota from tokens where id = ${id}`.execute(database.db);
      expect(Number(beforeSettlement.rows[0]!.used_quota)).toBe(0);
    } finally {
      releaseRow();
      await holding;
    }
    await waitFor(final);
    // The final event came after the settlement's commit: the charge is visible to anyone now.
    const afterFinal = await sql<{ used_quota: number }>`select used_quota from tokens where id = ${id}`.execute(
      database.db,
    );
    expect(Number(afterFinal.rows[0]!.used_quota)).toBeGreaterThan(0);
    await reading;
    expect(received).toContain(final);
    upstream.reset();
  });
});

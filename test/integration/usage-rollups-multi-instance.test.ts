import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { UsageLogEntry } from "../../src/billing/billing-service.js";
import { createBillingService } from "../../src/billing/create-billing-service.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { readModelRollupsAndSums, readRollupsAndRowSums } from "../support/compare-rollups-with-rows.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Two gateways on one PostgreSQL schema, each with its own pool, as two instances behind a load balancer: every
// usage row they write at once, settled requests and batched rows alike, is summed into the same hourly rollups.
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });
const sharedDatabase = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

describe("hourly rollups with two instances writing at once on PostgreSQL", () => {
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  let upstream: FakeUpstream;
  let secondPool: GatewayDatabase;
  const gateways: TestGateway[] = [];

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(sharedDatabase.db))
      .rows[0]!.schema;
    secondPool = await openDatabase(postgresUrl, { postgresSchema: schema, postgresPoolSize: 20 });
    const configFile = {
      channels: [{ name: "one", type: "openai", base_url: upstream.url, key: "k1", models: ["model-r"] }],
      pricing: { "model-r": { input: 1, output: 2 } },
    };
    for (const database of [sharedDatabase, secondPool]) {
      const started = await startTestGateway({
        database,
        configFile,
        environment: { GATEWAY_ADMIN_TOKEN: adminToken },
      });
      gateways.push({ ...started, adminToken, client: started.clientFor({ accessToken: adminToken }) });
    }
  });
  afterAll(async () => {
    for (const gateway of gateways.splice(0)) await gateway.close();
    await secondPool?.close();
    await upstream?.close();
  });

  it("equal the raw rows after 160 concurrent requests and 2 × 600 batched rows spread over both", async () => {
    const keys = [
      await createApiKey(gateways[0]!, { remainQuota: 50_000_000 }),
      await createApiKey(gateways[0]!, { unlimitedQuota: true }),
    ];
    const requests = Array.from({ length: 160 }, async (_, index) => {
      const gateway = gateways[index % 2]!;
      const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys[(index >> 1) % 2]!.key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "model-r",
          stream: index % 3 === 0,
          messages: [{ role: "user", content: `request ${index}` }],
        }),
      });
      await answer.arrayBuffer();
      return answer.status;
    });
    // The batched writer (rows with no settlement beside them) of both instances at once, onto the same keys.
    const batched = gateways.map(async (gateway, instance) => {
      const billing = createBillingService(gateway.gateway.context, { flushIntervalMs: 5 });
      for (let index = 0; index < 600; index += 1) {
        const entry: UsageLogEntry = {
          userId: 1,
          tokenId: keys[index % 2]!.id,
          tokenName: "batched",
          model: index % 5 === 0 ? "model-s" : "model-r",
          channelId: index % 7 === 0 ? null : 1,
          requestId: `batched-${instance}-${index}`,
          isStream: false,
          usage: { promptTokens: index, completionTokens: 3, cachedTokens: 1, cacheWriteTokens: 2, reasoningTokens: 0 },
          quota: index,
          latencyMs: 10,
          status: index % 11 === 0 ? "error" : "success",
          group: index % 3 === 0 ? "vip" : "default",
        };
        billing.recordUsage(entry);
        if (index % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await billing.flush();
    });
    const statuses = await Promise.all(requests);
    await Promise.all(batched);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const { rollups, fromRows } = await readRollupsAndRowSums(sharedDatabase.db);
    expect(rollups).toEqual(fromRows);
    expect(rollups.reduce((sum, row) => sum + row.requests, 0)).toBe(160 + 2 * 600);
    const { modelRollups, fromRows: modelsFromRows } = await readModelRollupsAndSums(sharedDatabase.db);
    expect(modelRollups).toEqual(modelsFromRows);
    // Both instances' statistics read the same rollups.
    const totals = await Promise.all(
      gateways.map(
        async (gateway) =>
          (await gateway.client.management.GET("/api/log/stat", { params: { query: { scope: "all" } } })).data!.data
            .totals,
      ),
    );
    expect(totals[0]).toEqual(totals[1]);
  });
});

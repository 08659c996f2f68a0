import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL } from "../../src/store/testing/open-test-databases.js";
import { readModelRollupsAndSums, readRollupsAndRowSums } from "../support/compare-rollups-with-rows.js";
import { startGatewayProcess, type GatewayProcess } from "../support/start-gateway-process.js";

// A gateway process killed with SIGKILL under 50-way load, twice, restarted on the same database: the hourly
// rollups equal the sums of the usage rows that survived (a row and its rollup commit together or not at all), and
// every answer of 200 the clients saw has its row. The kill comes once some answers were seen (plus a random
// moment), not at a fixed time, so a slow machine still kills mid-load.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-rollup-crash-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const schema = `t_rollup_crash_${crypto.randomBytes(5).toString("hex")}`;
const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;

async function runAdministrativeStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
beforeAll(() => runAdministrativeStatement(`create schema ${schema}`));
afterAll(() => runAdministrativeStatement(`drop schema if exists ${schema} cascade`));

const databases = [
  { name: "sqlite", url: () => `sqlite:${path.join(folder, "rollups.db")}` },
  { name: "postgres", url: () => `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}` },
];

/** 50 clients in a loop; SIGKILL once `killAfterAnswers` answers were seen and a random few milliseconds passed. */
async function loadUntilKilled(gateway: GatewayProcess, key: string, killAfterAnswers: number): Promise<string[]> {
  const seen: string[] = [];
  let killed = false;
  const worker = async (index: number) => {
    for (let request = 0; !killed; request++) {
      try {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: "model-a",
            stream: request % 2 === 0,
            messages: [{ role: "user", content: `client ${index} request ${request}` }],
          }),
        });
        const body = await response.text();
        if (response.status !== 200) throw new Error(`status ${response.status}: ${body}`);
        seen.push(response.headers.get("x-request-id")!);
        if (seen.length === killAfterAnswers)
          setTimeout(
            () => {
              killed = true;
              gateway.child.kill("SIGKILL");
            },
            Math.floor(Math.random() * 50),
          );
      } catch (error) {
        const message = String((error as Error).cause ?? error);
        if (!/ECONNRESET|ECONNREFUSED|other side closed|terminated|socket|fetch failed/i.test(message)) throw error;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: 50 }, (_, index) => worker(index)));
  return seen;
}

describe.each(databases)("hourly rollups after SIGKILL on $name", ({ name, url }) => {
  let upstream: FakeUpstream;
  let configFile: string;
  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    configFile = path.join(folder, `config-${name}.yaml`);
    fs.writeFileSync(
      configFile,
      YAML.stringify({
        channels: [
          { name: "main", type: "openai", base_url: upstream.url, key: "upstream-secret", models: ["model-a"] },
        ],
        pricing: { "model-a": { input: 2, output: 4 } },
      }),
    );
  });
  afterAll(async () => upstream?.close());

  it("equal the surviving usage rows, and every 200 seen has its row", { timeout: 300_000 }, async () => {
    const environment = {
      DATABASE_URL: url(),
      GATEWAY_CONFIG: configFile,
      GATEWAY_ADMIN_TOKEN: adminToken,
      GATEWAY_SECRET: "rollup-crash-secret-0123456789",
      LOG_LEVEL: "warn",
    };
    const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
    let gateway = await startGatewayProcess(environment, { listenWithinMs: 120_000 });
    await fetch(`${gateway.url}/api/token/`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ name: `rollups-${name}`, remain_quota: 100_000_000 }),
    });
    const listed = (await (await fetch(`${gateway.url}/api/token/?p=1`, { headers: admin })).json()) as {
      data: { items: Array<{ id: number; name: string }> };
    };
    const tokenId = listed.data.items.find((item) => item.name === `rollups-${name}`)!.id;
    const revealed = (await (
      await fetch(`${gateway.url}/api/token/${tokenId}/key`, { method: "POST", headers: admin })
    ).json()) as { data: { key: string } };
    const key = `sk-${revealed.data.key}`;

    const seen: string[] = [];
    for (let round = 0; round < 2; round++) {
      seen.push(...(await loadUntilKilled(gateway, key, 100 + Math.floor(Math.random() * 100))));
      await gateway.exited;
      gateway = await startGatewayProcess(environment, { listenWithinMs: 120_000 });
    }
    gateway.child.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);

    const database = await openDatabase(
      name === "sqlite" ? url() : postgresUrl,
      name === "sqlite" ? {} : { postgresSchema: schema },
    );
    try {
      const { rollups, fromRows } = await readRollupsAndRowSums(database.db);
      expect(seen.length).toBeGreaterThanOrEqual(200);
      expect(rollups).toEqual(fromRows);
      const { modelRollups, fromRows: modelsFromRows } = await readModelRollupsAndSums(database.db);
      expect(modelRollups).toEqual(modelsFromRows);
      const logged = new Set(
        (await database.db.selectFrom("usage_logs").select("request_id").execute()).map((row) => row.request_id),
      );
      expect(seen.filter((requestId) => !logged.has(requestId))).toEqual([]);
      expect(rollups.reduce((sum, row) => sum + row.requests, 0)).toBe(logged.size);
    } finally {
      await database.close();
    }
  });
});

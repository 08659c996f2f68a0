import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { DEFAULT_TEST_DATABASE_URL } from "../../src/store/testing/open-test-databases.js";
import { openDatabase } from "../../src/store/open-database.js";
import { readRollupsAndRowSums } from "../support/compare-rollups-with-rows.js";
import { startGatewayProcess, type GatewayProcess } from "../support/start-gateway-process.js";

// Issue 17, defect 9: a gateway process killed with SIGKILL at random points under 100-way load, restarted on the
// same database (recovery runs at start), must have billed every 200 its clients saw: remain + used = initial,
// used = the cost of the 200s seen (plus, at most, requests cut by the kill whose settlement had just committed
// when the socket died: their answer was on its way), and no hold left. The key belongs to a user with a wallet
// of the same size, which every request holds from too: wallet + used = initial after recovery, equal to the key's.
// The hourly usage rollups equal the sums of the usage rows that survived: a row and its rollup commit together.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-crash-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const schema = `t_crash_${crypto.randomBytes(5).toString("hex")}`;
const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
const initialQuota = 50_000_000;
const concurrency = 100;
const rounds = 2;

async function runAdministrativeStatement(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(() => runAdministrativeStatement(`create schema ${schema}`));
afterAll(() => runAdministrativeStatement(`drop schema if exists ${schema} cascade`));

const databases = [
  { name: "sqlite", url: () => `sqlite:${path.join(folder, "crash.db")}` },
  { name: "postgres", url: () => `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}` },
];

interface LoadResult {
  /** Sum of the cost of every 200 whose whole body arrived. */
  seenCost: number;
  seen: number;
  /** Requests that got no whole answer (cut by the kill). */
  cut: number;
}

/** 100 clients in a loop until the gateway dies under them; every 200 seen is priced from its usage. */
async function loadUntilKilled(gateway: GatewayProcess, key: string, killAfterMs: number): Promise<LoadResult> {
  const result: LoadResult = { seenCost: 0, seen: 0, cut: 0 };
  const killer = new Promise<void>((resolve) =>
    setTimeout(() => {
      gateway.child.kill("SIGKILL");
      resolve();
    }, killAfterMs),
  );
  const worker = async (index: number) => {
    for (let request = 0; ; request++) {
      let body: { usage?: { prompt_tokens: number; completion_tokens: number } };
      try {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: "model-a",
            max_tokens: 50,
            messages: [{ role: "user", content: `client ${index} request ${request}` }],
          }),
        });
        if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
        body = (await response.json()) as typeof body;
      } catch (error) {
        const message = String((error as Error).cause ?? error);
        if (!/ECONNRESET|ECONNREFUSED|other side closed|terminated|socket|fetch failed/i.test(message)) throw error;
        result.cut += 1;
        return;
      }
      // input 2 USD / 1M = 1 unit per prompt token, output 4 USD / 1M = 2 units per completion token.
      result.seenCost += body.usage!.prompt_tokens + 2 * body.usage!.completion_tokens;
      result.seen += 1;
    }
  };
  await Promise.all([killer, ...Array.from({ length: concurrency }, (_, index) => worker(index))]);
  return result;
}

describe.each(databases)("crash consistency on $name", ({ name, url }) => {
  let upstream: FakeUpstream;
  let configFile: string;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    upstream.setFaults({ latencyMs: 2 });
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
  afterAll(async () => {
    await upstream?.close();
  });

  it("bills every 200 seen after SIGKILL at random points under 100-way load, with no hold left", {
    timeout: 180_000,
  }, async () => {
    const environment = {
      DATABASE_URL: url(),
      GATEWAY_CONFIG: configFile,
      GATEWAY_ADMIN_TOKEN: adminToken,
      GATEWAY_SECRET: "crash-test-secret-0123456789",
      RESERVATION_RECOVERY_AFTER_SECONDS: "0",
      LOG_LEVEL: "warn",
    };
    const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
    let gateway = await startGatewayProcess(environment, { listenWithinMs: 120_000 });
    const password = `pw-${crypto.randomBytes(8).toString("hex")}`;
    const created = (await (
      await fetch(`${gateway.url}/api/user/`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ username: `crash-${name}`, password }),
      })
    ).json()) as { data: { id: number } };
    const userId = created.data.id;
    await fetch(`${gateway.url}/api/user/${userId}/quota`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ delta: initialQuota, reason: "crash test" }),
    });
    const login = (await (
      await fetch(`${gateway.url}/api/user/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: `crash-${name}`, password }),
      })
    ).json()) as { data: { access_token: string } };
    const owner = { authorization: `Bearer ${login.data.access_token}`, "content-type": "application/json" };
    await fetch(`${gateway.url}/api/token/`, {
      method: "POST",
      headers: owner,
      body: JSON.stringify({ name: `crash-${name}`, remain_quota: initialQuota }),
    });
    const listed = (await (await fetch(`${gateway.url}/api/token/?p=1`, { headers: owner })).json()) as {
      data: { items: Array<{ id: number; name: string }> };
    };
    const tokenId = listed.data.items.find((item) => item.name === `crash-${name}`)!.id;
    const revealed = (await (
      await fetch(`${gateway.url}/api/token/${tokenId}/key`, { method: "POST", headers: owner })
    ).json()) as { data: { key: string } };
    const key = `sk-${revealed.data.key}`;

    let seenCost = 0;
    let seen = 0;
    let cut = 0;
    for (let round = 0; round < rounds; round++) {
      const killAfterMs = 800 + Math.floor(Math.random() * 1200);
      const result = await loadUntilKilled(gateway, key, killAfterMs);
      await gateway.exited;
      seenCost += result.seenCost;
      seen += result.seen;
      cut += result.cut;
      // Holds of the requests in flight are older than RESERVATION_RECOVERY_AFTER_SECONDS=0 once a second passed.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      gateway = await startGatewayProcess(environment, { listenWithinMs: 120_000 });
    }
    // The last start ran recovery; wait for it, then stop cleanly and read the database itself.
    const readToken = async () =>
      (
        (await (await fetch(`${gateway.url}/api/token/${tokenId}`, { headers: owner })).json()) as {
          data: { remain_quota: number; used_quota: number };
        }
      ).data;
    await expect
      .poll(
        async () => {
          const token = await readToken();
          return token.remain_quota + token.used_quota;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(initialQuota);
    gateway.child.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);

    const database = await openDatabase(
      name === "sqlite" ? url() : postgresUrl,
      name === "sqlite" ? {} : { postgresSchema: schema },
    );
    try {
      const token = await database.db
        .selectFrom("tokens")
        .select(["remain_quota", "used_quota"])
        .where("id", "=", tokenId)
        .executeTakeFirstOrThrow();
      const wallet = await database.db
        .selectFrom("users")
        .select(["quota", "used_quota"])
        .where("id", "=", userId)
        .executeTakeFirstOrThrow();
      const holds = await database.db
        .selectFrom("quota_reservations")
        .select((expression) => expression.fn.countAll<number>().as("count"))
        .where("settled", "=", 0)
        .executeTakeFirstOrThrow();
      const costPerRequest = seen > 0 ? seenCost / seen : 0;
      const billedBeyondSeen = token.used_quota - seenCost;
      console.log(
        `crash consistency on ${name}: ${rounds} kills, ${seen} answers of 200 seen (cost ${seenCost}), ${cut} cut; ` +
          `used ${token.used_quota}, billed beyond the 200s seen: ${billedBeyondSeen / (costPerRequest || 1)} requests`,
      );
      expect(seen).toBeGreaterThan(0);
      expect(Number(token.remain_quota) + Number(token.used_quota)).toBe(initialQuota);
      // The wallet moved exactly as the key did: held, settled and recovered together.
      expect(Number(wallet.quota) + Number(wallet.used_quota)).toBe(initialQuota);
      expect(wallet).toEqual({ quota: token.remain_quota, used_quota: token.used_quota });
      // Every 200 seen is billed: nothing lost in the clients' favour.
      expect(token.used_quota).toBeGreaterThanOrEqual(seenCost);
      // Beyond that only requests cut by a kill, each at most once (identical requests cost the same).
      expect(billedBeyondSeen).toBeLessThanOrEqual(cut * costPerRequest);
      expect(Number(holds.count)).toBe(0);
      // Every usage row that survived the kills is in the hourly rollups, and nothing else is: they commit together.
      const { rollups, fromRows } = await readRollupsAndRowSums(database.db);
      expect(rollups).toEqual(fromRows);
      expect(rollups.reduce((sum, row) => sum + row.requests, 0)).toBeGreaterThanOrEqual(seen);
    } finally {
      await database.close();
    }
  });
});

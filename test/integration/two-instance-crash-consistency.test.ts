import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import YAML from "yaml";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL } from "../../src/store/testing/open-test-databases.js";
import { startGatewayProcess, type GatewayProcess } from "../support/start-gateway-process.js";

// Two gateway processes on one PostgreSQL, one hot key (and its owner's wallet) loaded through both; one of them is
// killed with SIGKILL at a random point while the other keeps answering, then restarted (its start sweeps the dead
// process's holds). Every 200 a client saw, from either instance, must be billed exactly once, and every hold of the
// killed process must come back: remain + used = initial on the key and on the wallet, no hold left.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-two-crash-"));
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const schema = `t_crash2_${crypto.randomBytes(5).toString("hex")}`;
const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
const initialQuota = 50_000_000;
const clientsPerInstance = 32;

async function administer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

let upstream: FakeUpstream;
let configFile: string;
beforeAll(async () => {
  await administer(`create schema ${schema}`);
  upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
  upstream.setFaults({ latencyMs: 2 });
  configFile = path.join(folder, "config.yaml");
  fs.writeFileSync(
    configFile,
    YAML.stringify({
      channels: [{ name: "main", type: "openai", base_url: upstream.url, key: "upstream-secret", models: ["model-a"] }],
      pricing: { "model-a": { input: 2, output: 4 } },
    }),
  );
});
afterAll(async () => {
  await upstream?.close();
  await administer(`drop schema if exists ${schema} cascade`);
  fs.rmSync(folder, { recursive: true, force: true });
});

interface LoadResult {
  seenCost: number;
  seen: number;
  cut: number;
}

/** Clients of one instance in a loop until `stop` resolves or the instance dies under them. */
async function load(gateway: GatewayProcess, key: string, stop: Promise<void>, result: LoadResult): Promise<void> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  const client = async (index: number) => {
    for (let request = 0; !stopped; request++) {
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
  await Promise.all(Array.from({ length: clientsPerInstance }, (_, index) => client(index)));
}

it("bills every 200 seen on either instance exactly once when one of two is killed under load, and its holds come back", {
  timeout: 600_000,
}, async () => {
  const environment = {
    DATABASE_URL: `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    GATEWAY_CONFIG: configFile,
    GATEWAY_ADMIN_TOKEN: adminToken,
    GATEWAY_SECRET: "crash-test-secret-0123456789",
    // Above the longest request here (tens of milliseconds), so a sweep never takes a live request's hold.
    RESERVATION_RECOVERY_AFTER_SECONDS: "2",
    LOG_LEVEL: "warn",
  };
  const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
  const gateways = [
    await startGatewayProcess(environment, { listenWithinMs: 120_000 }),
    await startGatewayProcess(environment, { listenWithinMs: 120_000 }),
  ];
  const url = gateways[0]!.url;
  const password = `pw-${crypto.randomBytes(8).toString("hex")}`;
  const created = (await (
    await fetch(`${url}/api/user/`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ username: "crash-two", password }),
    })
  ).json()) as { data: { id: number } };
  const userId = created.data.id;
  await fetch(`${url}/api/user/${userId}/quota`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ delta: initialQuota, reason: "crash test" }),
  });
  const login = (await (
    await fetch(`${url}/api/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "crash-two", password }),
    })
  ).json()) as { data: { access_token: string } };
  const owner = { authorization: `Bearer ${login.data.access_token}`, "content-type": "application/json" };
  await fetch(`${url}/api/token/`, {
    method: "POST",
    headers: owner,
    body: JSON.stringify({ name: "crash-two", remain_quota: initialQuota }),
  });
  const listed = (await (await fetch(`${url}/api/token/?p=1`, { headers: owner })).json()) as {
    data: { items: Array<{ id: number; name: string }> };
  };
  const tokenId = listed.data.items.find((item) => item.name === "crash-two")!.id;
  const revealed = (await (
    await fetch(`${url}/api/token/${tokenId}/key`, { method: "POST", headers: owner })
  ).json()) as {
    data: { key: string };
  };
  const key = `sk-${revealed.data.key}`;

  const total: LoadResult = { seenCost: 0, seen: 0, cut: 0 };
  const survivorSeen: number[] = [];
  for (const victim of [0, 1]) {
    const survivor = 1 - victim;
    const killAfterMs = 800 + Math.floor(Math.random() * 1200);
    const stopSurvivor = new Promise<void>((resolve) => setTimeout(resolve, killAfterMs + 1_000));
    const killer = new Promise<void>((resolve) => setTimeout(resolve, killAfterMs)).then(() => {
      gateways[victim]!.child.kill("SIGKILL");
    });
    const survivorResult: LoadResult = { seenCost: 0, seen: 0, cut: 0 };
    await Promise.all([
      killer,
      load(gateways[victim]!, key, new Promise(() => undefined), total),
      load(gateways[survivor]!, key, stopSurvivor, survivorResult),
    ]);
    await gateways[victim]!.exited;
    survivorSeen.push(survivorResult.seen);
    // The survivor lived through the kill and answered all of its clients.
    expect(survivorResult.cut).toBe(0);
    total.seenCost += survivorResult.seenCost;
    total.seen += survivorResult.seen;
    // The dead process's holds are older than RESERVATION_RECOVERY_AFTER_SECONDS once it has passed; the restart
    // sweeps them at its start.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    gateways[victim] = await startGatewayProcess(environment, { listenWithinMs: 120_000 });
  }
  const readToken = async () =>
    (
      (await (await fetch(`${gateways[0]!.url}/api/token/${tokenId}`, { headers: owner })).json()) as {
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
  for (const gateway of gateways) {
    gateway.child.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);
  }

  const database = await openDatabase(postgresUrl, { postgresSchema: schema });
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
    const usageRows = await database.db
      .selectFrom("usage_logs")
      .select((expression) => expression.fn.countAll<number>().as("count"))
      .where("token_id", "=", tokenId)
      .executeTakeFirstOrThrow();
    const costPerRequest = total.seen > 0 ? total.seenCost / total.seen : 0;
    const billedBeyondSeen = token.used_quota - total.seenCost;
    console.log(
      `two-instance crash consistency: 2 kills, ${total.seen} answers of 200 seen (survivors ${survivorSeen.join(", ")}), ` +
        `${total.cut} cut; billed beyond the 200s seen: ${billedBeyondSeen / (costPerRequest || 1)} requests`,
    );
    expect(survivorSeen.every((seen) => seen > 0)).toBe(true);
    expect(Number(token.remain_quota) + Number(token.used_quota)).toBe(initialQuota);
    expect(Number(wallet.quota) + Number(wallet.used_quota)).toBe(initialQuota);
    expect(wallet).toEqual({ quota: token.remain_quota, used_quota: token.used_quota });
    // Every 200 seen is billed, and beyond that only requests cut by a kill, each at most once.
    expect(token.used_quota).toBeGreaterThanOrEqual(total.seenCost);
    expect(billedBeyondSeen).toBeLessThanOrEqual(total.cut * costPerRequest);
    // Every 200 seen has its usage row; beyond them only requests cut by a kill.
    expect(Number(usageRows.count)).toBeGreaterThanOrEqual(total.seen);
    expect(Number(usageRows.count)).toBeLessThanOrEqual(total.seen + total.cut);
    expect(Number(holds.count)).toBe(0);
  } finally {
    await database.close();
  }
});

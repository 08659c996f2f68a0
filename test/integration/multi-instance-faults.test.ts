import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openRedis, type OpenedRedis } from "../../src/cache/open-redis.js";
import { createLogger } from "../../src/logging/logger.js";
import { DEFAULT_TEST_DATABASE_URL } from "../../src/store/testing/open-test-databases.js";
import { startGatewayProcess, type GatewayProcess } from "../support/start-gateway-process.js";
import { startTcpProxy, type TcpProxy } from "../support/start-tcp-proxy.js";

// The multi-instance mode under the faults of its two servers: gateway processes (as `npm start` runs them) on
// PostgreSQL and Redis, with connections terminated by the server, reset or black-holed by a TCP proxy in between,
// and several instances starting at once on an empty database. A process must live through each, answer in its
// envelope meanwhile, bill nothing twice, and serve again once the server is back.
const postgresUrl = new URL(process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL);
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-faults-"));
const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
const secret = "fault-test-secret-0123456789";
const schemas: string[] = [];
const gateways: GatewayProcess[] = [];
let upstream: FakeUpstream;
let configFile: string;

async function administer(statement: string, parameters: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: postgresUrl.toString() });
  await client.connect();
  try {
    return await client.query(statement, parameters);
  } finally {
    await client.end();
  }
}

async function freshSchema(): Promise<string> {
  const schema = `t_faults_${crypto.randomBytes(5).toString("hex")}`;
  await administer(`create schema ${schema}`);
  schemas.push(schema);
  return schema;
}

/** DATABASE_URL on `schema`, through `port` when given (a proxy), naming its connections `applicationName`. */
function databaseUrlFor(schema: string, options: { port?: number; applicationName?: string } = {}): string {
  const url = new URL(postgresUrl);
  if (options.port !== undefined) {
    url.hostname = "127.0.0.1";
    url.port = String(options.port);
  }
  url.searchParams.set("options", `-c search_path=${schema}`);
  if (options.applicationName) url.searchParams.set("application_name", options.applicationName);
  return url.toString();
}

// Several processes starting at once on two shared cores can take long to compile and listen.
async function startGateway(environment: Record<string, string>): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(
    {
      GATEWAY_CONFIG: configFile,
      GATEWAY_ADMIN_TOKEN: adminToken,
      GATEWAY_SECRET: secret,
      LOG_LEVEL: "warn",
      ...environment,
    },
    { listenWithinMs: 90_000 },
  );
  gateways.push(gateway);
  return gateway;
}

const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };

/** A token made through the management API, with its full key. */
async function createKey(
  gateway: GatewayProcess,
  fields: Record<string, unknown>,
): Promise<{ id: number; key: string }> {
  const name = `faults-${crypto.randomBytes(4).toString("hex")}`;
  const created = await fetch(`${gateway.url}/api/token/`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ name, ...fields }),
  });
  expect(created.status).toBe(200);
  const found = (await (await fetch(`${gateway.url}/api/token/search?keyword=${name}`, { headers: admin })).json()) as {
    data: { items: Array<{ id: number }> };
  };
  const id = found.data.items[0]!.id;
  const revealed = (await (
    await fetch(`${gateway.url}/api/token/${id}/key`, { method: "POST", headers: admin })
  ).json()) as { data: { key: string } };
  return { id, key: `sk-${revealed.data.key}` };
}

interface Answer {
  status: number;
  /** The answer's X-Request-Id: its usage log row's `request_id`. */
  requestId: string | null;
  body: { usage?: { prompt_tokens: number; completion_tokens: number }; error?: { code?: string } };
}

/** One chat request; `undefined` when no answer came within `timeoutMs` or the connection failed. */
async function chat(gateway: GatewayProcess, key: string, timeoutMs = 20_000): Promise<Answer | undefined> {
  try {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "model-a", max_tokens: 20, messages: [{ role: "user", content: "same words" }] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return {
      status: response.status,
      requestId: response.headers.get("x-request-id"),
      body: (await response.json()) as Answer["body"],
    };
  } catch {
    return undefined;
  }
}

/** `workers` clients sending requests one after the other until `stop` resolves. */
async function loadUntil(
  gateway: GatewayProcess,
  key: string,
  workers: number,
  stop: Promise<unknown>,
): Promise<Array<Answer | undefined>> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const answers: Array<Answer | undefined> = [];
  const worker = async () => {
    while (!stopped) answers.push(await chat(gateway, key));
  };
  await Promise.all([stop, ...Array.from({ length: workers }, worker)]);
  return answers;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const readiness = (gateway: GatewayProcess) =>
  fetch(`${gateway.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.status,
    () => 0,
  );

/** What a request costs: input 2 USD / 1M = 1 unit a prompt token, output 4 USD / 1M = 2 units a completion token. */
const costOf = (answer: Answer) => answer.body.usage!.prompt_tokens + 2 * answer.body.usage!.completion_tokens;

async function readLedger(schema: string, tokenId: number) {
  const token = await administer(`select remain_quota, used_quota from ${schema}.tokens where id = $1`, [tokenId]);
  const held = await administer(
    `select coalesce(sum(reserved), 0) as held from ${schema}.quota_reservations where token_id = $1 and settled = 0`,
    [tokenId],
  );
  return {
    remain: Number(token.rows[0].remain_quota),
    used: Number(token.rows[0].used_quota),
    held: Number(held.rows[0].held),
  };
}

beforeAll(async () => {
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
afterEach(async () => {
  for (const gateway of gateways.splice(0)) {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill("SIGKILL");
    await gateway.exited;
  }
});
afterAll(async () => {
  await upstream?.close();
  for (const schema of schemas) await administer(`drop schema if exists ${schema} cascade`);
  fs.rmSync(folder, { recursive: true, force: true });
});

describe("PostgreSQL faults", () => {
  it("lives through pg_terminate_backend of its connections under load: 503 in the envelope meanwhile, nothing billed twice, 200s after", {
    timeout: 60_000,
  }, async () => {
    const schema = await freshSchema();
    const applicationName = `gw_faults_${crypto.randomBytes(4).toString("hex")}`;
    const gateway = await startGateway({ DATABASE_URL: databaseUrlFor(schema, { applicationName }) });
    const initialQuota = 10_000_000;
    const { id, key } = await createKey(gateway, { remain_quota: initialQuota });

    const terminations = (async () => {
      for (let round = 0; round < 4; round++) {
        await sleep(400);
        await administer("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [
          applicationName,
        ]);
      }
      await sleep(300);
    })();
    const answers = await loadUntil(gateway, key, 16, terminations);

    expect(gateway.child.exitCode).toBeNull();
    const statuses = answers.map((answer) => answer?.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    for (const answer of answers.filter((answer) => answer?.status === 503)) {
      expect(answer!.body.error?.code).toBe("database_unavailable");
    }
    const answered = answers.filter((answer) => answer?.status === 200) as Answer[];
    expect(answered.length).toBeGreaterThan(0);
    for (let request = 0; request < 5; request++) expect((await chat(gateway, key))?.status).toBe(200);
    answered.push(...Array.from({ length: 5 }, () => answered[0]!));

    const costPerRequest = costOf(answered[0]!);
    const failed = statuses.filter((status) => status === 503).length;
    // Wait until the usage of the last answers is written, then read the ledger itself.
    await sleep(600);
    const ledger = await readLedger(schema, id);
    expect(ledger.remain + ledger.used + ledger.held).toBe(initialQuota);
    // Every 200 billed once; beyond that at most the failed requests whose settlement committed as the connection died.
    expect(ledger.used).toBeGreaterThanOrEqual(answered.length * costPerRequest);
    expect(ledger.used).toBeLessThanOrEqual((answered.length + failed) * costPerRequest);
    console.log(
      `pg_terminate_backend ×4 under 16 clients: ${answered.length - 5} answers of 200, ${failed} of 503 (database_unavailable)`,
    );
  });

  describe("through a TCP proxy", () => {
    let proxy: TcpProxy;
    beforeAll(async () => {
      proxy = await startTcpProxy(Number(postgresUrl.port || 5432), postgresUrl.hostname);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it("lives through reset connections, and after a black hole is ready and serving again within seconds", {
      timeout: 90_000,
    }, async () => {
      const schema = await freshSchema();
      const gateway = await startGateway({
        DATABASE_URL: databaseUrlFor(schema, { port: proxy.port }),
        DATABASE_CONNECT_TIMEOUT_MS: "1000",
        DATABASE_QUERY_TIMEOUT_MS: "1500",
        DATABASE_STATEMENT_TIMEOUT_MS: "1000",
      });
      const { key } = await createKey(gateway, { unlimited_quota: true });

      // Resets under load.
      const resets = (async () => {
        for (let round = 0; round < 3; round++) {
          await sleep(300);
          proxy.reset();
        }
        await sleep(300);
      })();
      const duringResets = await loadUntil(gateway, key, 8, resets);
      expect(gateway.child.exitCode).toBeNull();
      expect(duringResets.every((answer) => answer?.status === 200 || answer?.status === 503)).toBe(true);
      expect((await chat(gateway, key))?.status).toBe(200);

      // A black hole of three seconds under load: requests fail in their envelope instead of hanging.
      proxy.blackHole();
      const duringBlackHole = await loadUntil(gateway, key, 4, sleep(3_000));
      proxy.restore();
      const blackHoleFailures = duringBlackHole.filter((answer) => answer?.status === 503);
      expect(blackHoleFailures.length).toBeGreaterThan(0);
      expect(blackHoleFailures.every((answer) => answer!.body.error?.code === "database_unavailable")).toBe(true);

      const restoredAt = Date.now();
      await expect.poll(() => readiness(gateway), { timeout: 15_000, interval: 250 }).toBe(200);
      await expect
        .poll(async () => (await chat(gateway, key, 5_000))?.status, { timeout: 15_000, interval: 250 })
        .toBe(200);
      console.log(
        `PostgreSQL black hole of 3 s: ${duringBlackHole.length} requests answered during it; ready and serving ` +
          `${Date.now() - restoredAt} ms after it ended`,
      );
      expect(gateway.child.exitCode).toBeNull();
    });
  });

  it("starts three instances at once on an empty database: all come up, with one root", {
    timeout: 150_000,
  }, async () => {
    const schema = await freshSchema();
    const started = await Promise.allSettled(
      Array.from({ length: 3 }, () => startGateway({ DATABASE_URL: databaseUrlFor(schema) })),
    );
    const failures = started.filter((result) => result.status === "rejected").map((result) => String(result.reason));
    expect(failures).toEqual([]);
    for (const result of started) {
      const gateway = (result as PromiseFulfilledResult<GatewayProcess>).value;
      const self = await fetch(`${gateway.url}/api/user/self`, { headers: admin });
      expect(self.status).toBe(200);
    }
    const roots = await administer(`select count(*) as count from ${schema}.users where username = 'root'`);
    expect(Number(roots.rows[0].count)).toBe(1);
  });
});

describe("Redis faults", () => {
  let proxy: TcpProxy;
  let redis: OpenedRedis;
  // Each gateway has its own SQLite file (token ids start at 1 in each) and so its own prefix.
  const prefixes: string[] = [];
  beforeAll(async () => {
    proxy = await startTcpProxy(Number(redisUrl.port || 6379), redisUrl.hostname);
    redis = await openRedis(redisUrl.toString(), createLogger({ level: "silent" }));
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await redis?.client.keys(`${prefix}:*`);
      if (keys?.length) await redis.client.del(...keys);
    }
    await redis?.close();
    await proxy?.close();
  });

  async function startWithProxiedRedis(): Promise<{ gateway: GatewayProcess; prefix: string }> {
    const prefix = `faults-${crypto.randomBytes(5).toString("hex")}`;
    prefixes.push(prefix);
    const proxied = new URL(redisUrl);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(proxy.port);
    const gateway = await startGateway({
      DATABASE_URL: `sqlite:${path.join(folder, `redis-${crypto.randomBytes(4).toString("hex")}.db`)}`,
      REDIS_URL: proxied.toString(),
      REDIS_KEY_PREFIX: prefix,
      REDIS_COMMAND_TIMEOUT_MS: "500",
      REDIS_CONNECT_TIMEOUT_MS: "500",
    });
    return { gateway, prefix };
  }

  it("keeps every key and pub/sub channel under REDIS_KEY_PREFIX", { timeout: 60_000 }, async () => {
    const { gateway, prefix } = await startWithProxiedRedis();
    const { id, key } = await createKey(gateway, { unlimited_quota: true, rpm_limit: 100 });
    expect((await chat(gateway, key))?.status).toBe(200);
    const channels = ((await redis.client.pubsub("CHANNELS", `${prefix}:*`)) as string[]).sort();
    expect(channels).toEqual([`${prefix}:channels-changed`, `${prefix}:prices-changed`, `${prefix}:users-changed`]);
    const keys = (await redis.client.keys(`${prefix}:*`)).sort();
    // The key reveal budget of root (createKey revealed a key) and the token's RPM window.
    expect(keys).toEqual([`${prefix}:key-reveal:1`, `${prefix}:rate:rpm:${id}`]);
  });

  it("answers every request while Redis is black-holed, counting limits locally, and uses Redis again once it is back", {
    timeout: 60_000,
  }, async () => {
    const { gateway, prefix } = await startWithProxiedRedis();
    const rpmLimit = 25;
    const { id, key } = await createKey(gateway, { unlimited_quota: true, rpm_limit: rpmLimit });
    const sharedCount = () => redis.client.get(`${prefix}:rate:rpm:${id}`);
    for (let request = 0; request < 3; request++) expect((await chat(gateway, key))?.status).toBe(200);
    expect(await sharedCount()).toBe("3");

    proxy.blackHole();
    // Two clients for three seconds, each request given two seconds: the wait on Redis used to be two seconds.
    const answers: Array<Answer | undefined> = [];
    const stop = sleep(3_000);
    let stopped = false;
    void stop.then(() => (stopped = true));
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (!stopped) answers.push(await chat(gateway, key, 2_000));
      }),
    );
    proxy.restore();
    const statuses = answers.map((answer) => answer?.status);
    console.log(`Redis black hole of 3 s: ${answers.length} requests answered (${statuses.join(",")})`);
    expect(gateway.child.exitCode).toBeNull();
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(answers.length).toBeGreaterThan(rpmLimit);
    // Counted by this instance alone (Redis unreachable, its count unchanged): the limit held, from this instance's
    // own count — which may include a few of the three requests before, had Redis answered one later than the budget.
    const admitted = statuses.filter((status) => status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(rpmLimit - 3);
    expect(admitted).toBeLessThanOrEqual(rpmLimit);
    expect(await sharedCount()).toBe("3");

    // Healed: the black-holed connection is replaced, and requests are counted in Redis again.
    await expect
      .poll(
        async () => {
          await chat(gateway, key, 2_000);
          return Number(await sharedCount());
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBeGreaterThan(3);
  });
});

describe("two instances under faults of both servers", () => {
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let redis: OpenedRedis;
  const prefix = `faults-two-${crypto.randomBytes(5).toString("hex")}`;
  beforeAll(async () => {
    postgresProxy = await startTcpProxy(Number(postgresUrl.port || 5432), postgresUrl.hostname);
    redisProxy = await startTcpProxy(Number(redisUrl.port || 6379), redisUrl.hostname);
    redis = await openRedis(redisUrl.toString(), createLogger({ level: "silent" }));
  });
  afterAll(async () => {
    const keys = await redis?.client.keys(`${prefix}:*`);
    if (keys?.length) await redis.client.del(...keys);
    await redis?.close();
    await postgresProxy?.close();
    await redisProxy?.close();
  });

  it("keeps both alive through terminated, reset and black-holed connections under load: answers in their envelopes, ready again within seconds, every 200 billed and logged once", {
    timeout: 120_000,
  }, async () => {
    const schema = await freshSchema();
    const applicationName = `gw_two_${crypto.randomBytes(4).toString("hex")}`;
    const proxiedRedis = new URL(redisUrl);
    proxiedRedis.hostname = "127.0.0.1";
    proxiedRedis.port = String(redisProxy.port);
    const environment = {
      DATABASE_URL: databaseUrlFor(schema, { port: postgresProxy.port, applicationName }),
      DATABASE_CONNECT_TIMEOUT_MS: "1000",
      DATABASE_QUERY_TIMEOUT_MS: "1500",
      DATABASE_STATEMENT_TIMEOUT_MS: "1000",
      REDIS_URL: proxiedRedis.toString(),
      REDIS_KEY_PREFIX: prefix,
      REDIS_CONNECT_TIMEOUT_MS: "500",
      REDIS_COMMAND_TIMEOUT_MS: "500",
    };
    // Started together on the empty database, as an operator's two instances would be.
    const [first, second] = await Promise.all([startGateway(environment), startGateway(environment)]);
    const initialQuota = 10_000_000;
    // A limited key with a per-minute limit, so every request moves its balance row and asks Redis for its count.
    const { id, key } = await createKey(first, { remain_quota: initialQuota, rpm_limit: 1_000_000 });

    const loadStartedAt = Date.now();
    const faultsAt: string[] = [];
    const at = async (milliseconds: number, name: string, fault: () => unknown) => {
      await sleep(Math.max(0, loadStartedAt + milliseconds - Date.now()));
      faultsAt.push(`${name} at ${Date.now() - loadStartedAt} ms`);
      await fault();
    };
    const terminate = () =>
      administer("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [
        applicationName,
      ]);
    const faults = (async () => {
      await at(700, "pg_terminate_backend", terminate);
      await at(1_400, "PostgreSQL reset", () => postgresProxy.reset());
      await at(2_100, "Redis reset", () => redisProxy.reset());
      await at(2_800, "Redis black hole", () => redisProxy.blackHole());
      await at(4_300, "Redis restored", () => redisProxy.restore());
      await at(4_800, "PostgreSQL black hole", () => postgresProxy.blackHole());
      await at(6_800, "PostgreSQL restored", () => postgresProxy.restore());
      await at(7_300, "pg_terminate_backend", terminate);
      await sleep(700);
    })();
    // One load generator, six clients on each instance; every request must be answered within the client's 10 s.
    const timed: Array<{ answer: Answer | undefined; milliseconds: number }> = [];
    let stopped = false;
    void faults.then(() => (stopped = true));
    const client = async (gateway: GatewayProcess) => {
      while (!stopped) {
        const startedAt = Date.now();
        const answer = await chat(gateway, key, 10_000);
        timed.push({ answer, milliseconds: Date.now() - startedAt });
      }
    };
    await Promise.all([
      faults,
      ...[first, second].flatMap((gateway) => Array.from({ length: 6 }, () => client(gateway))),
    ]);

    for (const gateway of [first, second]) {
      expect(gateway.child.exitCode).toBeNull();
      expect(gateway.output()).not.toMatch(/Unhandled|uncaught/i);
    }
    const answers = timed.map((entry) => entry.answer);
    expect(answers.filter((answer) => answer === undefined)).toEqual([]);
    const statuses = answers.map((answer) => answer!.status);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const failures = answers.filter((answer) => answer!.status === 503) as Answer[];
    expect(failures.map((answer) => answer.body.error?.code).filter((code) => code !== "database_unavailable")).toEqual(
      [],
    );
    const answered = answers.filter((answer) => answer!.status === 200) as Answer[];
    expect(answered.length).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);

    // Both ready and serving within seconds of the last fault.
    const recoveredAt = Date.now();
    for (const gateway of [first, second]) {
      await expect.poll(() => readiness(gateway), { timeout: 15_000, interval: 250 }).toBe(200);
      await expect
        .poll(
          async () => {
            const answer = await chat(gateway, key, 5_000);
            if (answer?.status === 200) answered.push(answer);
            return answer?.status;
          },
          { timeout: 15_000, interval: 250 },
        )
        .toBe(200);
    }
    const recoveryMs = Date.now() - recoveredAt;

    // Every 200 has exactly one usage row, priced as its answer; the balance is exact: what was used is the sum of
    // the rows written with the settlements, and used + remaining + still held is what the key started with.
    const requestIds = answered.map((answer) => answer.requestId!);
    expect(new Set(requestIds).size).toBe(requestIds.length);
    const rows = await administer(
      `select request_id, count(*) as count, sum(quota) as quota from ${schema}.usage_logs
       where request_id = any($1::text[]) group by request_id`,
      [requestIds],
    );
    const logged = new Map(rows.rows.map((row) => [row.request_id as string, row]));
    for (const answer of answered) {
      const row = logged.get(answer.requestId!);
      expect(row, `usage row of ${answer.requestId}`).toBeDefined();
      expect(Number(row!.count)).toBe(1);
      expect(Number(row!.quota)).toBe(costOf(answer));
    }
    const ledger = await readLedger(schema, id);
    const billed = await administer(
      `select coalesce(sum(quota), 0) as quota from ${schema}.usage_logs where token_id = $1`,
      [id],
    );
    expect(ledger.used).toBe(Number(billed.rows[0].quota));
    expect(ledger.remain + ledger.used + ledger.held).toBe(initialQuota);
    const slowest = Math.max(...timed.map((entry) => entry.milliseconds));
    console.log(
      `two instances, ${faultsAt.join(", ")}: ${answered.length} answers of 200, ${failures.length} of 503 ` +
        `(database_unavailable), slowest answer ${slowest} ms; both ready and serving ${recoveryMs} ms after the ` +
        `last fault`,
    );
  });
});

import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { scanLogsForKeys } from "../support/scan-logs-for-keys.js";
import { sendRawRequest } from "../support/send-raw-request.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Password guessing meets a wall: failed sign-ins are counted per username and per client address, refused with 429
// and Retry-After once spent, and each failure is logged without its password.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const logFolder = fs.mkdtempSync(path.join(os.tmpdir(), "sign-in-throttle-logs-"));
const signInLimits = { failures_per_username: 3, failures_per_address: 6, window_seconds: 600 };
const wrongPassword = "definitely-wrong-password-0123";

function signIn(gateway: TestGateway, username: string, password: string) {
  return sendRawRequest(gateway.url, {
    path: "/api/user/login",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
}

async function waitForLines(file: string, text: string, count: number): Promise<string[]> {
  let lines: string[] = [];
  for (let attempt = 0; attempt < 50 && lines.length < count; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    lines = fs.existsSync(file)
      ? fs
          .readFileSync(file, "utf8")
          .split("\n")
          .filter((line) => line.includes(text))
      : [];
  }
  return lines;
}

afterAll(() => {
  expect(scanLogsForKeys(logFolder)).toEqual([]);
  fs.rmSync(logFolder, { recursive: true, force: true });
});

describe("password sign-in throttle, counted in memory", () => {
  const logFile = path.join(logFolder, "memory.log");
  let database: GatewayDatabase;
  let gateway: TestGateway;
  beforeAll(async () => {
    database = await openDatabase("sqlite::memory:");
    gateway = await startTestGateway({ database, logFile, configFile: { sign_in_limits: signInLimits } });
    const created = await gateway.client.management.POST("/api/user/", {
      body: { username: "alice", password: "correct-horse-battery" },
    });
    expect(created.response.status).toBe(200);
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.close();
  });

  it("refuses a username after its failures with 429 and Retry-After, even with the right password, and logs each failure without the password", async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await signIn(gateway, "alice", wrongPassword);
      expect(refused.status).toBe(401);
    }
    const throttled = await signIn(gateway, "alice", "correct-horse-battery");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(500);
    expect(throttled.json).toEqual({
      success: false,
      message: expect.stringMatching(/^Too many failed sign-ins, retry in \d+ seconds\.$/),
    });
    const lines = await waitForLines(logFile, `"msg":"failed sign-in"`, 3);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({
        level: 40,
        username: "alice",
        address: "127.0.0.1",
        requestId: expect.any(String),
      });
    }
    const log = fs.readFileSync(logFile, "utf8");
    expect(log).not.toContain(wrongPassword);
    expect(log).not.toContain("correct-horse-battery");
  });

  it("refuses an address that tries many usernames", async () => {
    // The address has 3 failures from the test above; 3 more on other names spend its 6.
    for (const username of ["bob", "carol", "dave"])
      expect((await signIn(gateway, username, wrongPassword)).status).toBe(401);
    const throttled = await signIn(gateway, "erin", wrongPassword);
    expect(throttled.status).toBe(429);
    expect(throttled.headers["retry-after"]).toMatch(/^\d+$/);
  });
});

describe("password sign-in throttle, shared through Redis", () => {
  const started: Array<{ gateway: TestGateway; database: GatewayDatabase }> = [];
  beforeAll(async () => {
    // A prefix of this run's own: runs sharing the machine's Redis never count each other's failures.
    const prefix = `test-sign-in-${crypto.randomBytes(6).toString("hex")}`;
    for (const name of ["first", "second"]) {
      const database = await openDatabase("sqlite::memory:");
      const gateway = await startTestGateway({
        database,
        logFile: path.join(logFolder, `redis-${name}.log`),
        configFile: { sign_in_limits: signInLimits },
        environment: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix },
      });
      started.push({ gateway, database });
    }
  });
  afterAll(async () => {
    for (const { gateway, database } of started) {
      await gateway.close();
      await database.close();
    }
  });

  it("counts failures on one instance against the other", async () => {
    const [first, second] = started.map((instance) => instance.gateway) as [TestGateway, TestGateway];
    expect((await signIn(first, "mallory", wrongPassword)).status).toBe(401);
    expect((await signIn(second, "mallory", wrongPassword)).status).toBe(401);
    expect((await signIn(first, "mallory", wrongPassword)).status).toBe(401);
    const throttled = await signIn(second, "mallory", wrongPassword);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers["retry-after"])).toBeGreaterThan(500);
    expect(throttled.json).toMatchObject({ success: false });
  });
});

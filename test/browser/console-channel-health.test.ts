import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";
import {
  type FakeOpenaiUpstream,
  startFakeOpenaiServer,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { buildConsole } from "./build-console.js";
import { launchChromium } from "./launch-chromium.js";

// The channels page as an operator meets a revoked upstream key: health badges per channel and per key with the
// reason, "test all" with the stored outcomes, re-enabling, priority and weight edited in place; axe in both
// languages.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const screenshotFolder = path.join(projectRoot, "test-output", "screenshots");
const consoleFolder = path.join(projectRoot, "test-output", "console-dist-channel-health");
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const goodKey = "sk-healthGoodUpstreamKey0000000000000000000000000Q2aZ";
const revokedKey = "sk-healthRevokedUpstreamKey00000000000000000000000Z9xY";

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe("channel health in the web console", () => {
  let database: GatewayDatabase;
  let upstream: FakeOpenaiUpstream;
  let gateway: TestGateway;
  let admin: SignedInUser;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(screenshotFolder, { recursive: true });
    [, database, upstream, browser] = await Promise.all([
      buildConsole(projectRoot, consoleFolder),
      openDatabase("sqlite::memory:"),
      startFakeOpenaiServer({ apiKey: goodKey }),
      launchChromium(),
    ]);
    gateway = await startTestGateway({
      database,
      environment: { CONSOLE_DIR: consoleFolder },
      configFile: {
        pricing: { "gpt-4o-mini": { input: 0, output: 0 } },
        channel_health: { disable_after_failures: 1, probe_interval_seconds: 3600 },
      },
    });
    admin = await createSignedInUser(gateway, { role: "admin" });
    const management = admin.client.management;
    for (const [name, keys] of [
      ["health-multi", [goodKey, revokedKey]],
      ["health-solo", [revokedKey]],
    ] as const) {
      const created = await management.POST("/api/channel/", {
        body: { name, type: "openai", base_url: upstream.url, keys: [...keys], models: ["gpt-4o-mini"] },
      });
      expect(created.response.status).toBe(200);
    }
    // Requests meet the revoked key on both channels until health takes it out. Which channel a request tries first
    // is the router's random pick, so four requests could all miss one of them: send until the solo channel and the
    // multi channel's revoked key are both out (a few requests; at most 40).
    const { key } = await createApiKey(gateway, { unlimitedQuota: true });
    const revokedKeyIsOutEverywhere = async () => {
      const listed = await management.GET("/api/channel/", { params: { query: { size: 100 } } });
      const items = listed.data!.data.items;
      const solo = items.find((item) => item.name === "health-solo");
      const multi = items.find((item) => item.name === "health-multi");
      return solo?.health?.state === "auto_disabled" && multi?.key_health?.[1]?.state === "auto_disabled";
    };
    for (let sent = 0; sent < 40 && !(await revokedKeyIsOutEverywhere()); sent += 1) {
      const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] }),
      });
      await answer.arrayBuffer();
    }
    expect(await revokedKeyIsOutEverywhere()).toBe(true);
    // axe-core is injected as a script, which the console's Content-Security-Policy would refuse.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    page.setDefaultTimeout(5_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("dialog", (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await upstream?.close();
    await database?.close();
  });

  const heading = () => page.getByRole("heading", { level: 1 }).textContent();
  const row = (name: string) =>
    page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
  const healthCell = (name: string) => row(name).getByRole("cell").nth(7);
  const status = () => page.getByRole("status").first();
  const checkAccessibility = async (name: string) => {
    await page.evaluate(axeSource);
    const violations = (await page.evaluate(
      "axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations)",
    )) as AxeViolation[];
    const serious = violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${name}: ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
    expect(serious).toEqual([]);
  };

  it("shows each channel's and key's health with the reason, and passes axe", async () => {
    await page.goto(`${gateway.url}/`);
    await page.getByLabel("Language").selectOption("en");
    await page.getByLabel("Access token", { exact: true }).fill(admin.accessToken);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(heading).toBe("Dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Channels" }).click();
    await expect.poll(heading).toBe("Channels");

    await expect
      .poll(() => healthCell("health-solo").textContent())
      .toMatch(/^Disabled automatically the upstream refused the key \(upstream status 401, .+\)Re-enable$/);
    const keys = row("health-multi").getByRole("list", { name: "Health of the keys of channel health-multi" });
    expect(await keys.getByRole("listitem").allTextContents()).toEqual([
      "Key 1: Healthy",
      expect.stringMatching(
        /^Key 2: Disabled automatically the upstream refused the key \(upstream status 401, .+\)Re-enable$/,
      ),
    ]);
    expect(await row("health-multi").getByRole("cell").nth(7).locator(".status").first().textContent()).toBe("Healthy");
    expect(await page.locator("body").innerText()).not.toContain(revokedKey);
    await checkAccessibility("channels, en");
    await page.screenshot({ path: path.join(screenshotFolder, "channel-health.png"), fullPage: true });
  });

  it("tests every channel and keeps each outcome with its time across a reload", async () => {
    await page.getByRole("button", { name: "Test all channels" }).click();
    await expect.poll(() => status().textContent()).toBe("Tested 2 channels: 1 passed.");
    const lastTest = (name: string) => row(name).getByRole("cell").nth(6).textContent();
    await expect.poll(() => lastTest("health-multi")).toMatch(/^OK in \d+ ms \(gpt-4o-mini\) on .+$/);
    expect(await lastTest("health-solo")).toMatch(/^Failed after \d+ ms: upstream answered 401: .+ on .+$/);
    await page.reload();
    await expect.poll(() => lastTest("health-solo")).toMatch(/^Failed after \d+ ms: upstream answered 401/);
  });

  it("re-enables a key and a channel, and saves priority and weight edited in place", async () => {
    await page.getByRole("button", { name: "Re-enable key 2 of channel health-multi" }).click();
    await expect.poll(() => status().textContent()).toBe("Key 2 of channel health-multi re-enabled.");
    await expect
      .poll(() => row("health-multi").getByRole("listitem").allTextContents())
      .toEqual(["Key 1: Healthy", "Key 2: Healthy"]);
    await page.getByRole("button", { name: "Re-enable channel health-solo" }).click();
    await expect.poll(() => status().textContent()).toBe("Channel health-solo re-enabled.");
    await expect.poll(() => healthCell("health-solo").textContent()).toBe("Healthy");

    const priority = page.getByLabel("Priority of channel health-multi");
    await priority.fill("7");
    await page.getByLabel("Weight of channel health-multi").fill("3");
    await page.getByLabel("Weight of channel health-multi").press("Enter");
    await expect.poll(() => status().textContent()).toBe("Priority and weight of channel health-multi saved.");
    const stored = await admin.client.management.GET("/api/channel/", { params: { query: {} } });
    expect(stored.data!.data.items.find((item) => item.name === "health-multi")).toMatchObject({
      priority: 7,
      weight: 3,
    });
  });

  it("speaks Chinese on the same page and passes axe there too", async () => {
    await page.getByLabel("Language").selectOption("zh-CN");
    await expect.poll(heading).toBe(zhCn.channels.title);
    expect(await page.getByRole("button", { name: zhCn.channels.testAll }).count()).toBe(1);
    expect(await page.getByRole("columnheader", { name: zhCn.channels.health }).count()).toBe(1);
    expect(await healthCell("health-solo").textContent()).toBe(zhCn.channels.healthStates.healthy);
    await checkAccessibility("channels, zh-CN");
    expect(pageErrors).toEqual([]);
  });
});

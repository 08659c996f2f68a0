import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";
import { startFakeAnthropicServer } from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { buildConsole } from "./build-console.js";
import { launchChromium } from "./launch-chromium.js";

// An administrator's usage page: switch from their own usage to every user's, filter by user, open one request's
// detail (channel, tokens by kind with cache reads and writes apart, cost, latency, request id), export CSV; checked
// by axe-core in English and Chinese.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const consoleFolder = path.join(projectRoot, "test-output", "console-dist-usage-administrators");
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe("the usage page for administrators", () => {
  let database: GatewayDatabase;
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let admin: SignedInUser;
  let customer: SignedInUser;
  let browser: Browser;
  let page: Page;
  let requestId = "";

  beforeAll(async () => {
    [, database, upstream, browser] = await Promise.all([
      buildConsole(projectRoot, consoleFolder),
      openDatabase("sqlite::memory:"),
      startFakeAnthropicServer({ apiKey: "sk-ant-browser" }),
      launchChromium(),
    ]);
    gateway = await startTestGateway({
      database,
      environment: { CONSOLE_DIR: consoleFolder },
      configFile: {
        channels: [
          {
            name: "claude-main",
            type: "anthropic",
            base_url: upstream.url,
            key: "sk-ant-browser",
            models: ["claude-a"],
          },
        ],
        pricing: { "claude-a": { input: 3, output: 15 } },
      },
    });
    admin = await createSignedInUser(gateway, { role: "admin" });
    customer = await createSignedInUser(gateway);
    // A customer's request that writes the provider's prompt cache.
    const { key } = await createApiKey({ ...gateway, client: customer.client }, { remainQuota: 5_000_000 });
    const answer = await fetch(`${gateway.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-a",
        max_tokens: 10,
        system: [{ type: "text", text: "a long shared preamble of six words", cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(answer.status).toBe(200);
    requestId = answer.headers.get("x-request-id")!;
    await answer.arrayBuffer();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
    page.setDefaultTimeout(5_000);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await upstream?.close();
    await database?.close();
  });

  const heading = () => page.getByRole("heading", { level: 1 }).textContent();
  const checkAccessibility = async (name: string) => {
    await page.evaluate(axeSource);
    const violations = (await page.evaluate(
      "axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations)",
    )) as AxeViolation[];
    expect(
      violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map(
          (violation) =>
            `${name}: ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
        ),
    ).toEqual([]);
  };

  it("switches to every user's usage, filters by user and opens one request's detail with the cache split", async () => {
    await page.goto(`${gateway.url}/`);
    await page.getByLabel("Access token", { exact: true }).fill(admin.accessToken);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(heading).toBe("Dashboard");
    await page.goto(`${gateway.url}/usage`);
    await expect.poll(heading).toBe("Usage");
    // The administrator's own usage is empty; every user's has the customer's request.
    await expect.poll(() => page.getByText("No requests in this range.").count()).toBe(1);
    await page.getByLabel("Whose usage").selectOption("all");
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "claude-a" }) });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(customer.username);
    // Cache read / write tokens: the fake wrote 7 prompt tokens to its cache.
    expect(await row.getByRole("cell").nth(5).textContent()).toBe("0 / 7");
    const totals = page.getByRole("region", { name: "Totals" });
    await expect.poll(() => totals.textContent()).toContain("Cache write tokens7");

    const filters = page.getByRole("form", { name: "Usage filters" });
    // A user is picked from a searchable list (GET /api/user/ with a keyword), never typed as a name or a number.
    const search = filters.getByLabel("Search users by name");
    // The select's label holds its options too, so its text starts with "User" rather than being it.
    const userSelect = filters.getByLabel(/^User/);
    const userOptions = () => userSelect.locator("option").allTextContents();
    await search.fill("nobody-at-all");
    await expect.poll(() => filters.getByText("No user matches.").count()).toBe(1);
    await expect.poll(userOptions).toEqual(["All users"]);
    await search.fill(admin.username);
    await expect.poll(userOptions).toEqual(["All users", `${admin.username} (#${admin.user.id})`]);
    await userSelect.selectOption(String(admin.user.id));
    await filters.getByRole("button", { name: "Show" }).click();
    await expect.poll(() => page.getByText("No requests in this range.").count()).toBe(1);
    await search.fill(customer.username);
    await expect
      .poll(userOptions)
      .toEqual(["All users", `${admin.username} (#${admin.user.id})`, `${customer.username} (#${customer.user.id})`]);
    await userSelect.selectOption(String(customer.user.id));
    await filters.getByLabel("Status").selectOption("success");
    await filters.getByRole("button", { name: "Show" }).click();
    await expect.poll(() => row.count()).toBe(1);
    await checkAccessibility("every user's usage");

    await page.getByRole("button", { name: `Details of request ${requestId}` }).click();
    const dialog = page.getByRole("dialog", { name: "Request details" });
    await expect.poll(() => dialog.textContent()).toContain("claude-main (#");
    const text = await dialog.textContent();
    expect(text).toContain(`User${customer.username} (#${customer.user.id})`);
    expect(text).toContain("Cache read tokens0");
    expect(text).toContain("Cache write tokens7");
    expect(text).toContain(`Request id${requestId}`);
    expect(text).toMatch(/Latency\d+ ms/);
    await checkAccessibility("one request's detail");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await (await download).path();
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${customer.username},`);
    expect(lines[1]).toContain(`,${requestId},`);
  });

  it("speaks Chinese on the same view, and passes axe there", async () => {
    await page.getByLabel("Language").selectOption("zh-CN");
    await expect.poll(heading).toBe(zhCn.usage.title);
    expect(await page.getByLabel(zhCn.usage.scope).inputValue()).toBe("all");
    expect(await page.getByRole("button", { name: zhCn.usage.exportCsv }).count()).toBe(1);
    expect(await page.getByRole("columnheader", { name: zhCn.usage.cacheTokens }).count()).toBe(1);
    await checkAccessibility("every user's usage in Chinese");
  });
});

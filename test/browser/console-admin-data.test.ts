import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { buildConsole } from "./build-console.js";
import { launchChromium } from "./launch-chromium.js";

// The administrators' money pages as an operator uses them: a batch of redemption codes created (shown once) and
// disabled, a model priced beside a read-only price from the configuration file, and the audit rows those changes
// left; axe in both languages.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const screenshotFolder = path.join(projectRoot, "test-output", "screenshots");
const consoleFolder = path.join(projectRoot, "test-output", "console-dist-admin-data");
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe("redemption codes, prices and the audit log in the web console", () => {
  let database: GatewayDatabase;
  let gateway: TestGateway;
  let admin: SignedInUser;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let createdCodes: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(screenshotFolder, { recursive: true });
    [, database, browser] = await Promise.all([
      buildConsole(projectRoot, consoleFolder),
      openDatabase("sqlite::memory:"),
      launchChromium(),
    ]);
    gateway = await startTestGateway({
      database,
      environment: { CONSOLE_DIR: consoleFolder },
      configFile: { pricing: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } },
    });
    admin = await createSignedInUser(gateway, { role: "admin" });
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
    await database?.close();
  });

  const heading = () => page.getByRole("heading", { level: 1 }).textContent();
  // The page's outcome message (a copy button has a status of its own).
  const status = () => page.locator(".notice-area").getByRole("status");
  const navigation = () => page.getByRole("navigation", { name: /^(Main|主导航)$/ });
  const bodyRows = (table: string) => page.getByRole("table", { name: table }).locator("tbody").getByRole("row");
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

  it("creates a batch of codes, shows them once, and disables the batch", async () => {
    await page.goto(`${gateway.url}/`);
    await page.getByLabel("Language").selectOption("en");
    await page.getByLabel("Access token", { exact: true }).fill(admin.accessToken);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(heading).toBe("Dashboard");
    await navigation().getByRole("link", { name: "Redemption codes" }).click();
    await expect.poll(heading).toBe("Redemption codes");
    expect(await page.getByText("No redemption codes match.").count()).toBe(1);

    await page.getByRole("button", { name: "New batch of codes" }).click();
    const dialog = page.getByRole("dialog", { name: "New batch of codes" });
    await dialog.getByLabel("Batch name").fill("spring-promo");
    await dialog.getByLabel("Number of codes (at most 100)").fill("2");
    await dialog.getByLabel("Value of each code in US dollars").fill("0.5");
    await dialog.getByRole("button", { name: "Create codes" }).click();
    await expect.poll(() => status().textContent()).toBe("2 codes created in batch spring-promo.");

    const shown = page.getByRole("region", { name: "The new codes of batch spring-promo" });
    createdCodes = [
      await shown.getByLabel("Code 1", { exact: true }).inputValue(),
      await shown.getByLabel("Code 2", { exact: true }).inputValue(),
    ];
    expect(createdCodes[0]).not.toBe("");
    expect(new Set(createdCodes).size).toBe(2);
    const rows = bodyRows("Redemption codes");
    await expect.poll(() => rows.count()).toBe(2);
    for (let index = 0; index < 2; index += 1) {
      const cells = await rows.nth(index).getByRole("cell").allTextContents();
      expect(cells.slice(0, 4)).toEqual(["spring-promo", "250,000 units ($0.50)", "Unused", "Never"]);
    }
    await checkAccessibility("redemption codes, en");
    await page.screenshot({ path: path.join(screenshotFolder, "admin-redemption-codes.png"), fullPage: true });

    await page.getByRole("button", { name: "Disable unused codes of batch spring-promo" }).click();
    await expect.poll(() => status().textContent()).toBe("2 codes of batch spring-promo disabled.");
    await expect
      .poll(async () => (await rows.locator(".status").allTextContents()).join(","))
      .toBe("Disabled,Disabled");
    const stored = await admin.client.management.GET("/api/redemption/", {
      params: { query: { name: "spring-promo" } },
    });
    expect(stored.data!.data.items.map((code) => code.status)).toEqual(["disabled", "disabled"]);

    // Shown once: after hiding them, the codes are nowhere on the page.
    await page.getByRole("button", { name: "Hide the codes" }).click();
    const text = await page.locator("body").innerText();
    for (const code of createdCodes) expect(text).not.toContain(code);
  });

  it("sets a model's price beside the configuration's read-only one, and lists groups", async () => {
    await navigation().getByRole("link", { name: "Prices & groups" }).click();
    await expect.poll(heading).toBe("Prices & groups");
    const priceRow = (model: string) =>
      page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${model}`) }) });
    await expect
      .poll(() => priceRow("gpt-4o-mini").getByRole("listitem").allTextContents())
      .toEqual(["Input, $ per 1M tokens: $0.15", "Output, $ per 1M tokens: $0.60"]);
    expect(await priceRow("gpt-4o-mini").getByRole("rowheader").textContent()).toBe(
      "gpt-4o-mini (from the configuration file)",
    );
    expect(await priceRow("gpt-4o-mini").getByRole("button").count()).toBe(0);

    await page.getByRole("button", { name: "Set a model's price" }).click();
    const dialog = page.getByRole("dialog", { name: "Set a model's price" });
    await dialog.getByLabel("Model name").fill("console-priced-model");
    await dialog.getByLabel("Input, $ per 1M tokens", { exact: true }).fill("0.5");
    await dialog.getByLabel("Output, $ per 1M tokens", { exact: true }).fill("1.5");
    await dialog.getByRole("button", { name: "Save price" }).click();
    await expect.poll(() => status().textContent()).toBe("Price of console-priced-model saved.");
    await expect
      .poll(() => priceRow("console-priced-model").getByRole("listitem").allTextContents())
      .toEqual(["Input, $ per 1M tokens: $0.50", "Output, $ per 1M tokens: $1.50"]);
    expect(await page.getByRole("button", { name: "Edit the price of console-priced-model" }).count()).toBe(1);
    const stored = await admin.client.management.GET("/api/pricing");
    expect(stored.data!.data.items.find((entry) => entry.model === "console-priced-model")).toMatchObject({
      source: "api",
      price: { input: 0.5, output: 1.5 },
    });

    const defaultGroup = bodyRows("Groups").filter({ has: page.getByRole("rowheader", { name: /^default/ }) });
    expect(await defaultGroup.getByRole("cell").nth(0).textContent()).toBe("1");
    await checkAccessibility("prices and groups, en");
    await page.screenshot({ path: path.join(screenshotFolder, "admin-prices.png"), fullPage: true });
  });

  it("shows the audit rows of those changes, without the codes", async () => {
    await navigation().getByRole("link", { name: "Audit log" }).click();
    await expect.poll(heading).toBe("Audit log");
    const rows = bodyRows("Audit log");
    const actionAndTarget = async () =>
      (await rows.all()).map(async (row) => {
        const cells = await row.getByRole("cell").allTextContents();
        return `${cells[0]} ${cells[1]} ${cells[2]}`;
      });
    await expect
      .poll(async () => Promise.all(await actionAndTarget()))
      .toEqual(
        expect.arrayContaining([
          `User ${admin.user.id} price.create price:console-priced-model`,
          `User ${admin.user.id} redemption.disable redemption:spring-promo`,
          `User ${admin.user.id} redemption.create redemption:spring-promo`,
        ]),
      );
    const text = await page.locator("body").innerText();
    for (const code of createdCodes) expect(text).not.toContain(code);

    await page.getByLabel("Action", { exact: true }).fill("price.create");
    await page.getByRole("button", { name: "Show" }).click();
    await expect
      .poll(async () => Promise.all(await actionAndTarget()))
      .toEqual([`User ${admin.user.id} price.create price:console-priced-model`]);
    await checkAccessibility("audit log, en");
    await page.screenshot({ path: path.join(screenshotFolder, "admin-audit.png"), fullPage: true });
  });

  it("speaks Chinese on the same pages and passes axe there too", async () => {
    await page.getByLabel("Language").selectOption("zh-CN");
    await expect.poll(heading).toBe(zhCn.audit.title);
    expect(await page.getByRole("columnheader", { name: zhCn.audit.before }).count()).toBe(1);
    await checkAccessibility("audit log, zh-CN");

    await navigation().getByRole("link", { name: zhCn.administration.prices }).click();
    await expect.poll(heading).toBe(zhCn.prices.title);
    expect(await page.getByRole("button", { name: zhCn.prices.new }).count()).toBe(1);
    await checkAccessibility("prices and groups, zh-CN");

    await navigation().getByRole("link", { name: zhCn.administration.redemption }).click();
    await expect.poll(heading).toBe(zhCn.redemption.title);
    await expect
      .poll(async () => (await bodyRows(zhCn.redemption.title).locator(".status").allTextContents()).join(","))
      .toBe(`${zhCn.redemption.statuses.disabled},${zhCn.redemption.statuses.disabled}`);
    await checkAccessibility("redemption codes, zh-CN");
    expect(pageErrors).toEqual([]);
  });
});

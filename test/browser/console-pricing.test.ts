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

// The pricing page: a plain user sees every model their groups reach with what it costs there (the group's ratio
// applied) and the unpriced ones marked; checked by axe-core in English and Chinese.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const consoleFolder = path.join(projectRoot, "test-output", "console-dist-pricing");
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

// Listing prices never calls the upstream, so the channel's address need not answer.
const configFile = {
  channels: [
    {
      name: "main",
      type: "openai",
      base_url: "http://127.0.0.1:9",
      key: "k1",
      models: ["model-priced", "model-unpriced"],
      groups: ["default", "team"],
    },
  ],
  groups: { default: { ratio: 1 }, team: { ratio: 2, selectable: true } },
  pricing: { "model-priced": { input: 0.15, output: 0.6, per_call: 0.01 } },
};

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe("the pricing page", () => {
  let database: GatewayDatabase;
  let gateway: TestGateway;
  let customer: SignedInUser;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [, database, browser] = await Promise.all([
      buildConsole(projectRoot, consoleFolder),
      openDatabase("sqlite::memory:"),
      launchChromium(),
    ]);
    gateway = await startTestGateway({ database, configFile, environment: { CONSOLE_DIR: consoleFolder } });
    customer = await createSignedInUser(gateway);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
    page.setDefaultTimeout(5_000);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
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

  it("lists a plain user's models with each group's price, and marks the unpriced ones", async () => {
    await page.goto(`${gateway.url}/`);
    await page.getByLabel("Access token", { exact: true }).fill(customer.accessToken);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(heading).toBe("Dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    await expect.poll(heading).toBe("Pricing");

    const table = page.getByRole("table", { name: "Pricing" });
    const priced = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "model-priced" }) });
    await expect.poll(() => priced.count()).toBe(1);
    const pricedText = await priced.textContent();
    expect(pricedText).toContain("Group default (ratio 1):");
    expect(pricedText).toContain("Input, $ per 1M tokens: $0.15");
    expect(pricedText).toContain("Output, $ per 1M tokens: $0.60");
    expect(pricedText).toContain("$ per call: $0.01");
    expect(pricedText).toContain("Group team (ratio 2):");
    expect(pricedText).toContain("Input, $ per 1M tokens: $0.30");
    expect(pricedText).toContain("Output, $ per 1M tokens: $1.20");
    const unpriced = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "model-unpriced" }) });
    expect(await unpriced.textContent()).toContain("Not priced");
    await checkAccessibility("the pricing page");
  });

  it("speaks Chinese and passes axe there", async () => {
    await page.getByLabel("Language").selectOption("zh-CN");
    await expect.poll(heading).toBe(zhCn.pricing.title);
    expect(await page.getByRole("columnheader", { name: zhCn.pricing.groupPrices }).count()).toBe(1);
    await checkAccessibility("the pricing page in Chinese");
  });
});

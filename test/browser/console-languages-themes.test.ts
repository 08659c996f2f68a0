import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../console/src/i18n/catalogue-en.js";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";
import { type FakeUpstream, startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { buildConsole } from "./build-console.js";
import { launchChromium } from "./launch-chromium.js";

// The console in both languages and both themes, at a desktop and a phone width: every page checked by axe-core
// (no serious or critical violation), the Chinese pages scanned for English left over, and a screenshot of each.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const screenshotFolder = path.join(projectRoot, "test-output", "screenshots");
const consoleFolder = path.join(projectRoot, "test-output", "console-dist-languages");
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const upstreamKey = "sk-upstreamLanguagesKey00000000000000000000000000Q2aZ";

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

function flatValues(tree: object): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === "string" ? [value] : flatValues(value as object)));
}

// English sentences and words of the catalogue that a Chinese page must not show (names such as "English" read
// the same in both catalogues and are left out; so are texts made only of placeholders and punctuation).
const chineseTexts = new Set(flatValues(zhCn));
const englishOnly = flatValues(en)
  .filter((text) => !chineseTexts.has(text))
  .flatMap((text) => text.split(/\{\{\w+\}\}/))
  .map((piece) => piece.replace(/[^A-Za-z' -]+/g, " ").trim())
  .filter((piece) => /^[A-Za-z]{3,}/.test(piece) && piece.includes(" "));

describe("web console in two languages and two themes", () => {
  let database: GatewayDatabase;
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let admin: SignedInUser;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(screenshotFolder, { recursive: true });
    [, database, upstream, browser] = await Promise.all([
      buildConsole(projectRoot, consoleFolder),
      openDatabase("sqlite::memory:"),
      startFakeOpenaiServer({ apiKey: upstreamKey }),
      launchChromium(),
    ]);
    gateway = await startTestGateway({
      database,
      environment: { CONSOLE_DIR: consoleFolder },
      configFile: { pricing: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } },
    });
    admin = await createSignedInUser(gateway, { role: "admin" });
    // One request through a channel, so Usage has a row, totals and a chart.
    const management = admin.client.management;
    await management.POST("/api/channel/", {
      body: {
        name: "languages-openai",
        type: "openai",
        base_url: upstream.url,
        key: upstreamKey,
        models: ["gpt-4o-mini"],
      },
    });
    await management.POST("/api/token/", { body: { name: "languages-app", remain_quota: 500_000 } });
    const token = (await management.GET("/api/token/", { params: { query: {} } })).data!.data.items[0];
    const key = (await management.POST("/api/token/{id}/key", { params: { path: { id: token.id } } })).data!.data.key;
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer sk-${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] }),
    });
    expect(answer.status).toBe(200);
    await answer.json();
    // axe-core is injected as a script, which the console's Content-Security-Policy would refuse; console.test.ts
    // checks that policy with the page as served.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "zh-CN", bypassCSP: true });
    page = await context.newPage();
    page.setDefaultTimeout(5_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
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
    const serious = violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${name}: ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
    expect(serious).toEqual([]);
  };
  const checkNoEnglishLeft = async (name: string) => {
    const text = await page.locator("body").innerText();
    expect([name, englishOnly.filter((piece) => text.includes(piece))]).toEqual([name, []]);
  };

  it("speaks the browser's language at first, and sign-in errors in plain words", async () => {
    await page.goto(`${gateway.url}/`);
    await expect.poll(heading).toBe("登录");
    expect(await page.evaluate("document.documentElement.lang")).toBe("zh-CN");
    await page.getByLabel("访问令牌", { exact: true }).fill("not-a-token");
    await page.getByRole("button", { name: "使用令牌登录" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(zhCn.signIn.tokenRefused);

    await page.getByLabel("语言").selectOption("en");
    await expect.poll(heading).toBe("Sign in");
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(en.signIn.tokenRefused);
    expect(await page.getByRole("alert").textContent()).not.toContain("Authorization");
    // The choice is remembered over the browser's language.
    await page.reload();
    await expect.poll(heading).toBe("Sign in");
    await page.getByLabel("Access token", { exact: true }).fill(admin.accessToken);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(heading).toBe("Dashboard");
  });

  it("shows administrators the whole gateway: channels by health, video tasks in flight and the top users", async () => {
    const gatewayRegion = page.getByRole("region", { name: "The whole gateway" });
    const figure = (term: string) =>
      gatewayRegion
        .locator("dl > div")
        .filter({ has: page.getByText(term, { exact: true }) })
        .locator("dd")
        .first();
    await expect.poll(() => figure("Channels: Healthy").textContent()).toBe("1");
    expect(await figure("Channels: Cooling down").textContent()).toBe("0");
    expect(await figure("Channels: Disabled automatically").textContent()).toBe("0");
    expect(await figure("Channels: Disabled by an administrator").textContent()).toBe("0");
    await expect.poll(() => figure("Video tasks queued").textContent()).toBe("0");
    expect(await figure("Video tasks in progress").textContent()).toBe("0");
    // The one request of the setup, from the rollups (GET /api/log/stat/users).
    const topUsers = gatewayRegion.getByRole("table", { name: "Top users (30 days)" });
    await expect
      .poll(async () => (await topUsers.locator("tbody tr").allInnerTexts()).map((row) => row.split(/\s+/).slice(0, 3)))
      .toEqual([[admin.username, `(#${admin.user.id})`, "1"]]);
  });

  it("follows the system's dark setting until the user picks a theme, and remembers the pick", async () => {
    const background = () => page.evaluate("getComputedStyle(document.documentElement).backgroundColor");
    await page.emulateMedia({ colorScheme: "light" });
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).toBe("rgb(13, 17, 23)");
    await page.getByLabel("Theme").selectOption("light");
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.reload();
    await expect.poll(heading).toBe("Dashboard");
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.getByLabel("Theme").selectOption("system");
    expect(await background()).toBe("rgb(13, 17, 23)");
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("shows a not-found page for an unknown address, with a way back", async () => {
    await page.goto(`${gateway.url}/no-such-page`);
    await expect.poll(heading).toBe("Page not found");
    expect(await page.getByRole("main").textContent()).toContain("/no-such-page");
    expect(await page.getByRole("navigation", { name: "Main" }).locator("[aria-current=page]").count()).toBe(0);
    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await expect.poll(heading).toBe("Dashboard");
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });

  it("keeps chart labels at 11 px or more on a 390 px screen, with the numbers in a table too", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${gateway.url}/usage`);
    const chart = page.getByRole("figure").filter({ hasText: "Requests per day" });
    await expect.poll(() => chart.locator("svg rect").count()).toBe(1);
    // The size a label is drawn at on screen: its font size times the SVG's scale to CSS pixels.
    const labelSizes = (await chart.locator("svg text").evaluateAll((texts) =>
      texts.map((text) => {
        const label = text as unknown as { getAttribute(name: string): string; getScreenCTM(): { a: number } };
        return Number(label.getAttribute("font-size")) * label.getScreenCTM().a;
      }),
    )) as number[];
    expect(labelSizes.length).toBeGreaterThan(2);
    expect(Math.min(...labelSizes)).toBeGreaterThanOrEqual(11);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await chart.getByText("Requests as a table").click();
    expect(await chart.getByRole("table").getByRole("cell").allTextContents()).toContain("1 request");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("passes axe on a plain user's pages in both themes, at 390 px", async () => {
    const user = await createSignedInUser(gateway);
    const userContext = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const previous = page;
    page = await userContext.newPage();
    try {
      await page.goto(`${gateway.url}/`);
      await page.getByLabel("Access token", { exact: true }).fill(user.accessToken);
      await page.getByRole("button", { name: "Sign in with token" }).click();
      await expect.poll(heading).toBe("Dashboard");
      expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toEqual([
        "Dashboard",
        "Tokens",
        "Usage",
        "Tasks",
        "Wallet",
        "Pricing",
      ]);
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        for (const [target, title] of [
          ["/dashboard", "Dashboard"],
          ["/tokens", "Tokens"],
          ["/usage", "Usage"],
          ["/tasks", "Tasks"],
          ["/wallet", "Wallet"],
          ["/pricing", "Pricing"],
          ["/channels", "Page not found"],
        ]) {
          await page.goto(`${gateway.url}${target}`);
          await expect.poll(heading).toBe(title);
          await page.locator("main p:not(.error):visible").first().waitFor();
          const name = `user-${target.slice(1)}-en-${colorScheme}-390px`;
          await checkAccessibility(name);
          await page.screenshot({ path: path.join(screenshotFolder, `${name}.png`), fullPage: true });
        }
      }
    } finally {
      await userContext.close();
      page = previous;
    }
  }, 120_000);

  // Every page of the console, as an administrator sees it.
  const pages = [
    { path: "/dashboard", en: en.dashboard.title, zh: zhCn.dashboard.title },
    { path: "/tokens", en: en.tokens.title, zh: zhCn.tokens.title },
    { path: "/usage", en: en.usage.title, zh: zhCn.usage.title },
    { path: "/tasks", en: en.tasks.title, zh: zhCn.tasks.title },
    { path: "/wallet", en: en.wallet.title, zh: zhCn.wallet.title },
    { path: "/pricing", en: en.pricing.title, zh: zhCn.pricing.title },
    { path: "/channels", en: en.channels.title, zh: zhCn.channels.title },
    { path: "/users", en: en.users.title, zh: zhCn.users.title },
    { path: "/redemption", en: en.redemption.title, zh: zhCn.redemption.title },
    { path: "/prices", en: en.prices.title, zh: zhCn.prices.title },
    { path: "/audit", en: en.audit.title, zh: zhCn.audit.title },
    { path: "/no-such-page", en: en.notFound.title, zh: zhCn.notFound.title },
  ];
  for (const language of ["en", "zh-CN"] as const)
    for (const colorScheme of ["light", "dark"] as const)
      it(`passes axe on every page in ${language}, ${colorScheme}, at 1280 and 390 px`, async () => {
        await page.emulateMedia({ colorScheme });
        await page.evaluate(`localStorage.setItem("gateway-console-language", "${language}")`);
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          for (const target of pages) {
            await page.goto(`${gateway.url}${target.path}`);
            await expect.poll(heading).toBe(language === "en" ? target.en : target.zh);
            // Wait for the page's data (its table or its empty-list sentence), not for a fixed time.
            if (target.path === "/dashboard") await page.locator("main table:visible").first().waitFor();
            else if (target.path !== "/no-such-page")
              await page.locator("main table:visible, main p:not(.error):visible").first().waitFor();
            const name = `${target.path.slice(1)}-${language}-${colorScheme}-${width}px`;
            await checkAccessibility(name);
            if (language === "zh-CN") await checkNoEnglishLeft(name);
            await page.screenshot({ path: path.join(screenshotFolder, `${name}.png`), fullPage: true });
          }
        }
        // The sign-in page, signed out in a fresh tab of the same browser profile.
        const signInPage = await context.newPage();
        await signInPage.goto(`${gateway.url}/`);
        await signInPage.getByRole("heading", { level: 1 }).waitFor();
        await signInPage.emulateMedia({ colorScheme });
        const previous = page;
        page = signInPage;
        await checkAccessibility(`sign-in-${language}-${colorScheme}`);
        if (language === "zh-CN") await checkNoEnglishLeft(`sign-in-${language}-${colorScheme}`);
        await page.screenshot({ path: path.join(screenshotFolder, `sign-in-${language}-${colorScheme}.png`) });
        page = previous;
        await signInPage.close();
        await page.setViewportSize({ width: 1280, height: 900 });
        expect(pageErrors).toEqual([]);
      }, 240_000);
});

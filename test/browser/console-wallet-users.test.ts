import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../console/src/i18n/catalogue-en.js";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { walletMessages } from "../../src/wallets/wallet-messages.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { buildConsole } from "./build-console.js";
import { launchChromium } from "./launch-chromium.js";

// The wallet page (a user redeems a code an administrator made and watches the balance grow; a used code is
// refused with the gateway's own message) and the users page (an administrator finds a user, tops their wallet up,
// disables them, resets another's password and deletes them after confirming); checked by axe-core in English and Chinese.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const consoleFolder = path.join(projectRoot, "test-output", "console-dist-wallet-users");
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe("the wallet and users pages", () => {
  let database: GatewayDatabase;
  let gateway: TestGateway;
  let admin: SignedInUser;
  let customer: SignedInUser;
  let leaver: SignedInUser;
  let browser: Browser;
  let customerPage: Page;
  let adminPage: Page;
  let code = "";

  beforeAll(async () => {
    [, database, browser] = await Promise.all([
      buildConsole(projectRoot, consoleFolder),
      openDatabase("sqlite::memory:"),
      launchChromium(),
    ]);
    gateway = await startTestGateway({ database, environment: { CONSOLE_DIR: consoleFolder } });
    admin = await createSignedInUser(gateway, { role: "admin" });
    customer = await createSignedInUser(gateway, { wallet: 1_000_000 });
    leaver = await createSignedInUser(gateway, { wallet: 0 });
    const batch = await admin.client.management.POST("/api/redemption/", {
      body: { name: "spring promotion", quota: 250_000, count: 1 },
    });
    code = batch.data!.data.codes[0];
    const openPage = async () => {
      const page = await (
        await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
      ).newPage();
      page.setDefaultTimeout(5_000);
      return page;
    };
    [customerPage, adminPage] = await Promise.all([openPage(), openPage()]);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await database?.close();
  });

  const heading = (page: Page) => () => page.getByRole("heading", { level: 1 }).textContent();
  const checkAccessibility = async (page: Page, name: string) => {
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
  const signIn = async (page: Page, user: SignedInUser) => {
    await page.goto(`${gateway.url}/`);
    await page.getByLabel("Access token", { exact: true }).fill(user.accessToken);
    await page.getByRole("button", { name: "Sign in with token" }).click();
    await expect.poll(heading(page)).toBe("Dashboard");
  };

  it("lets a user redeem a code and see the wallet grow, and says the gateway's refusal of a used code in the page's language", async () => {
    const page = customerPage;
    await signIn(page, customer);
    const navigation = page.getByRole("navigation", { name: "Main" });
    expect(await navigation.getByRole("link", { name: "Users" }).count()).toBe(0);
    await navigation.getByRole("link", { name: "Wallet" }).click();
    await expect.poll(heading(page)).toBe("Wallet");
    const balance = page.getByRole("region", { name: "Balance" });
    await expect.poll(() => balance.textContent()).toContain("Remaining1,000,000 units ($2.00)");

    const form = page.getByRole("form", { name: "Redeem a code" });
    await form.getByLabel("Redemption code").fill(code);
    await form.getByRole("button", { name: "Redeem" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe("Code redeemed: 250,000 units ($0.50) added to your wallet.");
    await expect.poll(() => balance.textContent()).toContain("Remaining1,250,000 units ($2.50)");
    const history = page.getByRole("region", { name: "Top-up history" });
    const row = history.getByRole("row").filter({ hasText: "Redemption code" });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("spring promotion");
    await checkAccessibility(page, "the wallet");

    await form.getByLabel("Redemption code").fill(code);
    await form.getByRole("button", { name: "Redeem" }).click();
    const refusal = await (
      await gateway.clientFor({ accessToken: customer.accessToken }).management.POST("/api/user/self/redeem", {
        body: { code },
      })
    ).error?.message;
    // The gateway's sentence, said in the console's words in each language.
    expect(refusal).toBe(walletMessages.codeNotRedeemable);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(en.errors.known.codeNotRedeemable);
    expect(await balance.textContent()).toContain("Remaining1,250,000 units ($2.50)");
    await page.getByLabel("Language").selectOption("zh-CN");
    await page
      .getByRole("form", { name: zhCn.wallet.redeemTitle })
      .getByRole("button", { name: zhCn.wallet.redeem })
      .click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(zhCn.errors.known.codeNotRedeemable);
    await page.getByLabel("语言").selectOption("en");
  });

  it("lets an administrator find a user, top their wallet up, disable them, reset another's password and delete them", async () => {
    const page = adminPage;
    await signIn(page, admin);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
    await expect.poll(heading(page)).toBe("Users");
    const search = page.getByRole("search").getByRole("form", { name: "Search users" });
    await search.getByLabel("Username or display name contains").fill(customer.username);
    await search.getByRole("button", { name: "Search" }).click();
    const rows = page.getByRole("table", { name: "Users" }).getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    const row = rows.filter({ has: page.getByRole("rowheader", { name: customer.username }) });
    expect(await row.textContent()).toContain("1,250,000 units ($2.50)");

    await row.getByRole("button", { name: `Top up the wallet of ${customer.username}` }).click();
    const topUp = page.getByRole("dialog", { name: `Top up the wallet of ${customer.username}` });
    await topUp.getByLabel("Amount in US dollars (negative takes away)").fill("1.5");
    expect(await topUp.textContent()).toContain("750,000 units ($1.50)");
    await topUp.getByLabel("Reason").fill("conference credit");
    await checkAccessibility(page, "the top-up dialog");
    await topUp.getByRole("button", { name: "Change wallet" }).click();
    await expect.poll(() => topUp.count()).toBe(0);
    await expect.poll(() => row.textContent()).toContain("2,000,000 units ($4.00)");
    const wallet = (await customer.client.management.GET("/api/user/self")).data!.data;
    expect(wallet.quota).toBe(2_000_000);

    await row.getByRole("button", { name: `Edit user ${customer.username}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit user ${customer.username}` });
    await edit.getByLabel("Status").selectOption("2");
    // Role is root's to change: an administrator is not offered it.
    expect(await edit.getByLabel("Role").count()).toBe(0);
    await edit.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => edit.count()).toBe(0);
    await expect.poll(() => row.getByRole("cell").nth(2).textContent()).toBe("Disabled");
    expect((await customer.client.management.GET("/api/user/self")).response.status).toBe(401);
    await checkAccessibility(page, "the users list");

    await search.getByLabel("Username or display name contains").fill(leaver.username);
    await search.getByRole("button", { name: "Search" }).click();
    const leaverRow = rows.filter({ has: page.getByRole("rowheader", { name: leaver.username }) });
    await expect.poll(() => leaverRow.count()).toBe(1);
    await leaverRow.getByRole("button", { name: `Reset password of ${leaver.username}` }).click();
    const reset = page.getByRole("dialog", { name: `Reset password of ${leaver.username}` });
    await reset.getByLabel("New password").fill("a-brand-new-password");
    await reset.getByRole("button", { name: "Reset password" }).click();
    // Hashing a password is slow on purpose, so this waits past the usual bound for the dialog to close.
    await reset.waitFor({ state: "detached", timeout: 30_000 });
    expect(await page.getByRole("status").textContent()).toBe(
      `Password of ${leaver.username} reset; they must sign in again.`,
    );
    const login = await gateway.clientFor({}).management.POST("/api/user/login", {
      body: { username: leaver.username, password: "a-brand-new-password" },
    });
    expect(login.response.status).toBe(200);

    page.once("dialog", (dialog) => void dialog.accept());
    await leaverRow.getByRole("button", { name: `Delete user ${leaver.username}` }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe(`User ${leaver.username} deleted.`);
    await expect.poll(() => page.getByText("No users match.").count()).toBe(1);
  });

  it("speaks Chinese on both pages, and passes axe there", async () => {
    const page = adminPage;
    await page.getByLabel("Language").selectOption("zh-CN");
    await expect.poll(heading(page)).toBe(zhCn.users.title);
    const search = page.getByRole("form", { name: zhCn.users.searchLabel });
    await search.getByLabel(zhCn.users.nameContains).fill(customer.username);
    await search.getByRole("button", { name: zhCn.users.search }).click();
    await expect.poll(() => page.getByRole("columnheader", { name: zhCn.users.wallet }).count()).toBe(1);
    expect(await page.getByRole("cell", { name: zhCn.userStatus.disabled }).count()).toBe(1);
    await checkAccessibility(page, "the users page in Chinese");
    await page.getByRole("navigation", { name: zhCn.nav.label }).getByRole("link", { name: zhCn.nav.wallet }).click();
    await expect.poll(heading(page)).toBe(zhCn.wallet.title);
    expect(await page.getByRole("button", { name: zhCn.wallet.redeem }).count()).toBe(1);
    await checkAccessibility(page, "the wallet in Chinese");
  });
});

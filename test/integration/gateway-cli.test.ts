import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProjectRoot } from "../../src/http/find-project-root.js";
import { openDatabase, type GatewayDatabase } from "../../src/store/open-database.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const projectRoot = findProjectRoot();
const tsx = path.join(projectRoot, "node_modules", ".bin", "tsx");
const cliEntry = path.join(projectRoot, "src", "cli", "gateway-cli.ts");

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run gateway -- <args>` the way the package script does (tsx on the entry), against `databaseUrl`. */
function runCli(args: string[], databaseUrl: string, stdin = ""): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [cliEntry, ...args], {
      cwd: projectRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        GATEWAY_SECRET: "cli-test-secret-0123456789",
        GATEWAY_CONFIG: "",
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("gateway CLI (user create, user set-password) on a temporary SQLite file", () => {
  let folder: string;
  let databaseUrl: string;
  let database: GatewayDatabase | undefined;
  let gateway: TestGateway | undefined;
  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-cli-"));
    databaseUrl = `sqlite:${path.join(folder, "gateway.db")}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const signIn = (username: string, password: string) =>
    gateway!.clientFor({}).management.POST("/api/user/login", { body: { username, password } });

  it("creates an administrator and prints it as JSON; the gateway then signs it in", async () => {
    const result = await runCli(
      ["user", "create", "--username", "alice", "--password", "s3cret-pass", "--role", "admin", "--group", "vip"],
      databaseUrl,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toEqual({
      id: expect.any(Number),
      username: "alice",
      display_name: "alice",
      role: "admin",
      group: "vip",
      status: 1,
      created_time: expect.any(Number),
      // The operator's administrators spend without a wallet limit, as root does.
      quota: 0,
      used_quota: 0,
      quota_unlimited: true,
      allowed_groups: [],
    });
    expect(result.stdout).not.toContain("s3cret-pass");

    database = await openDatabase(databaseUrl);
    gateway = await startTestGateway({ database });
    const login = await signIn("alice", "s3cret-pass");
    expect(login.response.status).toBe(200);
    expect(login.data?.data).toMatchObject({ id: printed.id, username: "alice", role: "admin", group: "vip" });
    // An administrator made by the CLI can create users through the API.
    const admin = gateway.clientFor({ accessToken: login.data!.data.access_token });
    const created = await admin.management.POST("/api/user/", {
      body: { username: "made-by-alice", password: "password-1234" },
    });
    expect(created.response.status).toBe(200);
  });

  it("defaults to role user and group default, and reads the password from stdin with --password-stdin", async () => {
    const result = await runCli(
      ["user", "create", "--username", "bob", "--password-stdin", "--display-name", "Bob B."],
      databaseUrl,
      "from-stdin-pass\n",
    );
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      username: "bob",
      display_name: "Bob B.",
      role: "user",
      group: "default",
    });
    expect((await signIn("bob", "from-stdin-pass")).response.status).toBe(200);
  });

  it("sets a new password: the old one stops working, the new one signs in", async () => {
    const result = await runCli(
      ["user", "set-password", "--username", "alice", "--password", "brand-new-pass"],
      databaseUrl,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ username: "alice", role: "admin" });
    expect((await signIn("alice", "s3cret-pass")).response.status).toBe(401);
    expect((await signIn("alice", "brand-new-pass")).response.status).toBe(200);
  });

  it("fails with status 1 and a clear message for a taken username or an unknown user", async () => {
    const taken = await runCli(["user", "create", "--username", "alice", "--password", "other-password"], databaseUrl);
    expect(taken.status).toBe(1);
    expect(taken.stdout).toBe("");
    expect(taken.stderr).toBe("gateway: Username alice is already taken.\n");
    const unknown = await runCli(
      ["user", "set-password", "--username", "nobody", "--password", "whatever-pass"],
      databaseUrl,
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe("gateway: No user named nobody.\n");
    // The refused create did not touch alice's password.
    expect((await signIn("alice", "brand-new-pass")).response.status).toBe(200);
  });

  // Every usage error is covered in process by src/cli/run-gateway-cli.test.ts; one spawned run proves the exit status.
  it("exits with status 2, the reason and the usage on a usage error, without touching the database", async () => {
    const result = await runCli(
      ["user", "create", "--username", "carol", "--password", "short", "--role", "root"],
      databaseUrl,
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^gateway: --password must NOT have fewer than 8 characters\. --role must be equal to one of the allowed values \(user, admin\)\.\n/,
    );
    expect(result.stderr).toContain("Usage:");
    expect((await signIn("carol", "short")).response.status).toBe(401);
  });

  it("prints the usage with --help (status 0)", async () => {
    const result = await runCli(["--help"], databaseUrl);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("npm run gateway -- user create --username <name>");
    expect(result.stdout).toContain("user set-password");
  });

  it("reports an unusable DATABASE_URL with status 1", async () => {
    const result = await runCli(
      ["user", "create", "--username", "dave", "--password", "s3cret-pass"],
      "mysql://nowhere/db",
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("DATABASE_URL must start with sqlite: or postgres://");
  });
});

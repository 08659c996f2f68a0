import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { runGatewayCli } from "./run-gateway-cli.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-cli-unit-"));
const databaseFile = path.join(folder, "never-created.db");
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function collect(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString("utf8");
      callback();
    },
  });
  return { stream, text: () => text };
}

async function run(argv: string[]) {
  const stdout = collect();
  const stderr = collect();
  const status = await runGatewayCli(argv, {
    stdin: Readable.from([]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    environment: { DATABASE_URL: `sqlite:${databaseFile}`, GATEWAY_SECRET: "cli-unit-secret-0123456789" },
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

// The spawned end-to-end runs live in test/integration/gateway-cli.test.ts; these cover every usage error fast.
describe("runGatewayCli usage errors", () => {
  it.each([
    [["user", "create", "--password", "s3cret-pass"], 'gateway: "user create" needs --username.'],
    [
      ["user", "create", "--username", "carol"],
      'gateway: "user create" needs exactly one of --password and --password-stdin.',
    ],
    [
      ["user", "create", "--username", "carol", "--password", "a", "--password-stdin"],
      'gateway: "user create" needs exactly one of --password and --password-stdin.',
    ],
    [
      ["user", "create", "--username", "carol", "--password", "short"],
      "gateway: --password must NOT have fewer than 8 characters.",
    ],
    [
      ["user", "create", "--username", "carol", "--password", "p".repeat(129)],
      "gateway: --password must NOT have more than 128 characters.",
    ],
    [
      ["user", "create", "--username", "ca", "--password", "s3cret-pass"],
      "gateway: --username must NOT have fewer than 3 characters.",
    ],
    [
      ["user", "create", "--username", "c".repeat(33), "--password", "s3cret-pass"],
      "gateway: --username must NOT have more than 32 characters.",
    ],
    [
      ["user", "create", "--username", "carol", "--password", "s3cret-pass", "--role", "root"],
      "gateway: --role must be equal to one of the allowed values (user, admin).",
    ],
    [
      ["user", "create", "--username", "carol", "--password", "s3cret-pass", "--group", ""],
      "gateway: --group must NOT have fewer than 1 characters.",
    ],
    [
      ["user", "create", "--username", "carol", "--password", "s3cret-pass", "--display-name", "d".repeat(65)],
      "gateway: --display-name must NOT have more than 64 characters.",
    ],
    [
      ["user", "create", "--username", "carol", "--password", "s3cret-pass", "--colour", "red"],
      "gateway: Unknown option '--colour'",
    ],
    [["user", "create", "--username"], "gateway: Option '--username <value>' argument missing"],
    [
      ["user", "set-password", "--username", "alice", "--password", "brand-new-pass", "--role", "admin"],
      'gateway: "user set-password" does not take --role.',
    ],
    [["user", "set-password", "--password", "brand-new-pass"], 'gateway: "user set-password" needs --username.'],
    [
      ["user", "set-password", "--username", "alice", "--password", "short"],
      "gateway: --password must NOT have fewer than 8 characters.",
    ],
    [["user", "remove", "--username", "alice"], 'gateway: Unknown command "user remove".'],
    [["token", "create"], 'gateway: Unknown command "token create".'],
  ])("refuses %j with status 2, the reason and the usage", async (argv, message) => {
    const result = await run(argv);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith(message)).toBe(true);
    expect(result.stderr).toContain("\n\nUsage:\n  npm run gateway -- user create");
    expect(fs.existsSync(databaseFile)).toBe(false);
  });

  it("reports an empty password read from stdin as too short", async () => {
    const result = await run(["user", "create", "--username", "carol", "--password-stdin"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^gateway: --password must NOT have fewer than 8 characters\./);
  });

  it.each([[["--help"]], [["-h"]], [[]], [["help"]]])("prints the usage for %j with status 0", async (argv) => {
    const result = await run(argv);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Usage:\n/);
    expect(fs.existsSync(databaseFile)).toBe(false);
  });
});

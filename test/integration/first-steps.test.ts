import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The README's first steps, run as a new user would: its fake provider command, its config file, its gateway start
// line (the entry `npm start` runs, from source, so the test needs no build), then its curl commands verbatim.
const projectRoot = path.resolve(import.meta.dirname, "..", "..");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-first-steps-"));
const children: ChildProcess[] = [];
afterAll(() => {
  // Each child leads its own process group (npm → sh → tsx → node): stop the whole group.
  for (const child of children) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid);
  fs.rmSync(folder, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** The sh blocks of the README's "First steps" section, in order. */
function readFirstStepsBlocks(): string[] {
  const readme = fs.readFileSync(path.join(projectRoot, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## First steps"),
    readme.indexOf("\n## ", readme.indexOf("## First steps")),
  );
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

function start(command: string, args: string[], environment: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: projectRoot,
    env: { ...process.env, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Runs shell text with bash; every curl answer ends its own line, so the answers can be read one by one. */
function runShell(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("bash", ["-e", "-c", `curl() { command curl "$@"; echo; }\n${script}`], {
    cwd: folder,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

function startGateway(environment: Record<string, string>, port: number) {
  // A console folder of its own, so the note about it does not depend on whether console/dist was built.
  const consoleFolder = path.join(folder, `console-${port}`);
  fs.mkdirSync(consoleFolder, { recursive: true });
  fs.writeFileSync(path.join(consoleFolder, "index.html"), "<!doctype html><title>console</title>");
  return start(process.execPath, ["--import", "tsx", "src/main.ts"], {
    LOG_LEVEL: "info",
    PORT: String(port),
    DATABASE_URL: `sqlite:${path.join(folder, `gateway-${port}.db`)}`,
    GATEWAY_SECRET: "first-steps-test-secret-0123456789",
    CONSOLE_DIR: consoleFolder,
    ...environment,
  });
}

describe("the README's first steps", () => {
  it("get a new user from nothing to a 200 and a billed usage row, with the start log's notes", async () => {
    const [services, calls] = readFirstStepsBlocks();
    expect(services).toBeDefined();
    expect(calls).toBeDefined();

    // 1. The fake provider, by its npm script, on a port of its own (the README's 4010 may be taken here).
    expect(services).toContain("npm run fake-upstream &\n");
    const fakePort = await freePort();
    const fake = start("npm", ["run", "fake-upstream", "--silent"], { FAKE_UPSTREAM_PORT: String(fakePort) });
    await expect
      .poll(() => fake.output(), { timeout: 30_000, interval: 100 })
      .toContain(`fake OpenAI-compatible upstream at http://127.0.0.1:${fakePort}`);

    // 2. The config file, exactly as the README writes it, pointed at that port.
    const heredoc = /cat > (\S+) <<'YAML'\n([\s\S]*?)\nYAML\n/.exec(services as string);
    expect(heredoc).not.toBeNull();
    const [, configName, configText] = heredoc as RegExpExecArray;
    expect(configText).toContain("base_url: http://127.0.0.1:4010");
    const configFile = path.join(folder, configName as string);
    fs.writeFileSync(configFile, (configText as string).replace("127.0.0.1:4010", `127.0.0.1:${fakePort}`));

    // 3. The gateway with the start line's environment.
    const startLine = (services as string).split("\n").find((line) => line.endsWith("npm start &"));
    expect(startLine).toBeDefined();
    const environment = Object.fromEntries(
      [...(startLine as string).matchAll(/(\w+)=(\S+)/g)].map(([, name, value]) => [name, value]),
    ) as Record<string, string>;
    expect(Object.keys(environment)).toEqual(["GATEWAY_CONFIG", "GATEWAY_ADMIN_TOKEN"]);
    const port = await freePort();
    const gateway = startGateway({ ...environment, GATEWAY_CONFIG: configFile }, port);
    await expect.poll(() => gateway.output(), { timeout: 30_000, interval: 100 }).toContain("gateway listening");
    await expect.poll(() => gateway.output(), { timeout: 5_000 }).toContain(`web console at http://localhost:${port}/`);
    expect(gateway.output()).toContain("GATEWAY_ADMIN_TOKEN is the README's example value");
    expect(gateway.output()).not.toContain("no channel is configured");

    // 4 and 5. The README's calls, verbatim but for the gateway's address.
    expect(calls).toContain("export GW=http://localhost:3000 ");
    const result = await runShell((calls as string).replace("http://localhost:3000", `http://127.0.0.1:${port}`));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const answers = result.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    expect(answers[0]).toEqual({ success: true, message: "" });
    const chat = answers.find((answer) => answer.object === "chat.completion");
    expect(chat).toMatchObject({ model: "gpt-4o-mini", choices: [{ message: { role: "assistant" } }] });
    const logs = answers.at(-1);
    expect(logs.success).toBe(true);
    const [row] = logs.data.items;
    expect(row).toMatchObject({ model: "gpt-4o-mini", prompt_tokens: chat.usage.prompt_tokens });
    // Priced as the README's config says: 0.15 and 0.6 USD per 1M tokens, 500,000 units per USD, rounded.
    const exact = ((chat.usage.prompt_tokens * 0.15 + chat.usage.completion_tokens * 0.6) / 1_000_000) * 500_000;
    expect(row.quota).toBe(Math.round(exact));
    expect(row.quota).toBeGreaterThan(0);
    // Four processes start here (the fake, the build, the gateway, the shell's calls): minutes on a busy 2-core machine.
  }, 180_000);

  it("warns at start when no channel is configured", async () => {
    const port = await freePort();
    const gateway = startGateway({ GATEWAY_ADMIN_TOKEN: "a-secret-of-this-test-only" }, port);
    await expect.poll(() => gateway.output(), { timeout: 30_000, interval: 100 }).toContain("gateway listening");
    await expect.poll(() => gateway.output(), { timeout: 5_000 }).toContain("no channel is configured");
    expect(gateway.output()).not.toContain("README's example value");
  }, 60_000);
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";

const projectRoot = path.resolve(import.meta.dirname, "..", "..");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-main-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function startMain(environment: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: projectRoot,
    env: { ...process.env, LOG_LEVEL: "info", ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe("the gateway process (npm start's entry)", () => {
  it("exits with code 2 and a message naming the bad key when the config file is invalid", async () => {
    const configFile = path.join(folder, "bad.yaml");
    fs.writeFileSync(
      configFile,
      "channels:\n  - name: x\n    type: openai\n    base_url: http://127.0.0.1:1\n    models: [a]\n    wieght: 3\n",
    );
    const main = startMain({
      GATEWAY_CONFIG: configFile,
      DATABASE_URL: `sqlite:${path.join(folder, "bad.db")}`,
      PORT: String(await freePort()),
    });
    expect(await main.exited).toBe(2);
    expect(main.output()).toContain("Configuration error: GATEWAY_CONFIG:");
    expect(main.output()).toContain("channels.0: must NOT have additional properties (wieght)");
  });

  it("on SIGTERM finishes the request in flight, then exits 0", async () => {
    const upstream = await startFakeOpenaiServer();
    upstream.setFaults({ latencyMs: 1500 });
    const port = await freePort();
    const adminToken = "admin-token-for-main-process-test";
    const configFile = path.join(folder, "good.yaml");
    fs.writeFileSync(
      configFile,
      `channels:\n  - name: main\n    type: openai\n    base_url: ${upstream.url}\n    models: [model-a]\npricing:\n  model-a: { input: 1, output: 1 }\n`,
    );
    const main = startMain({
      GATEWAY_CONFIG: configFile,
      GATEWAY_ADMIN_TOKEN: adminToken,
      DATABASE_URL: `sqlite:${path.join(folder, "good.db")}`,
      PORT: String(port),
      HOST: "127.0.0.1",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(() => main.output(), { timeout: 20_000 }).toContain("gateway listening");
      const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
      await fetch(`${base}/api/token/`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "main-test", unlimited_quota: true }),
      });
      const key = (
        (await (await fetch(`${base}/api/token/1/key`, { method: "POST", headers: admin })).json()) as {
          data: { key: string };
        }
      ).data.key;

      const inFlight = fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "model-a", messages: [{ role: "user", content: "slow one" }] }),
      });
      await expect.poll(() => upstream.requests.length, { timeout: 5000 }).toBe(1);
      main.child.kill("SIGTERM");
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(
        ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
      ).toBe("Echo: slow one");
      expect(await main.exited).toBe(0);
      expect(main.output()).toContain("stopped");
    } finally {
      main.child.kill("SIGKILL");
      await upstream.close();
    }
  });
});

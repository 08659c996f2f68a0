import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { startGatewayProcess } from "../support/start-gateway-process.js";

const recorder = path.resolve(import.meta.dirname, "..", "support", "record-loaded-modules.mjs");

/**
 * The gateway as `npm start` runs it, with every module it resolves recorded: without an OTLP endpoint it serves
 * requests (a chat, a stream) without loading a single OpenTelemetry module; with one, it does load them (the
 * recording itself works).
 */
describe("tracing off loads nothing of OpenTelemetry", () => {
  let upstream: FakeUpstream;
  let folder: string;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "tracing-off-"));
  });
  afterAll(async () => {
    await upstream?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function serveAndListModules(extraEnvironment: Record<string, string>): Promise<string[]> {
    const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
    const configFile = path.join(folder, `config-${crypto.randomBytes(4).toString("hex")}.yaml`);
    fs.writeFileSync(
      configFile,
      YAML.stringify({
        channels: [{ name: "plain", type: "openai", base_url: upstream.url, key: "sk-plain", models: ["model-o"] }],
        pricing: { "model-o": { input: 0, output: 0 } },
      }),
    );
    const modulesFile = path.join(folder, `modules-${crypto.randomBytes(4).toString("hex")}.txt`);
    const gateway = await startGatewayProcess(
      {
        DATABASE_URL: `sqlite:${path.join(folder, `${crypto.randomBytes(4).toString("hex")}.db`)}`,
        GATEWAY_CONFIG: configFile,
        GATEWAY_ADMIN_TOKEN: adminToken,
        LOADED_MODULES_FILE: modulesFile,
        OTEL_EXPORTER_OTLP_ENDPOINT: "",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
        ...extraEnvironment,
      },
      { nodeArguments: ["--import", recorder], listenWithinMs: 90_000 },
    );
    try {
      const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
      const created = await fetch(`${gateway.url}/api/token/`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "t", unlimited_quota: true }),
      });
      expect(created.status).toBe(200);
      const keyAnswer = (await (
        await fetch(`${gateway.url}/api/token/1/key`, { method: "POST", headers: admin })
      ).json()) as { data: { key: string } };
      const headers = { authorization: `Bearer sk-${keyAnswer.data.key}`, "content-type": "application/json" };
      for (const stream of [false, true]) {
        const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers,
          body: JSON.stringify({ model: "model-o", messages: [{ role: "user", content: "hi" }], stream }),
        });
        expect(answer.status).toBe(200);
        await answer.text();
      }
    } finally {
      gateway.child.kill("SIGTERM");
      await gateway.exited;
    }
    return fs.readFileSync(modulesFile, "utf8").split("\n").filter(Boolean);
  }

  it("serves a chat and a stream without resolving any @opentelemetry module", async () => {
    const modules = await serveAndListModules({});
    expect(modules.some((url) => url.includes("/src/create-gateway.ts"))).toBe(true);
    expect(modules.filter((url) => url.includes("@opentelemetry") || url.includes("create-open-telemetry"))).toEqual(
      [],
    );
  }, 200_000);

  it("loads them once an OTLP endpoint is set", async () => {
    const modules = await serveAndListModules({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(modules.some((url) => url.includes("@opentelemetry/sdk-trace-node"))).toBe(true);
  }, 200_000);
});

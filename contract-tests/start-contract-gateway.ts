import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { startFakeAnthropicServer } from "../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import { startFakeNativeServer } from "../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer } from "../mocks/upstreams/openai/start-fake-openai-server.js";
import type { FaultPlan } from "../mocks/upstreams/shared/fault-plan.js";
import { findFreePorts } from "./find-free-ports.js";
import { waitForHttp } from "./wait-for-http.js";

export interface ContractGateway {
  url: string;
  adminToken: string;
  /** Limits the harness sets so 413 can be triggered cheaply. */
  managementBodyLimitBytes: number;
  jsonBodyLimitBytes: number;
  logFile: string;
  upstreamHeaderTimeoutMs: number;
  setUpstreamFault(fault: FaultPlan | undefined): void;
  close(): Promise<void>;
}

export interface ContractChannelModels {
  openai: string[];
  native: string[];
  /** Served only by disabled channels (one per protocol): the 503 checks ask for these. */
  disabled: string[];
  anthropic: string[];
}

const projectRoot = path.resolve(import.meta.dirname, "..");

/**
 * The real gateway as a child process (`tsx src/main.ts`, as operators run it) on a free port, with a fresh SQLite
 * file, and one channel per protocol pointing at the fake upstreams, which run in this process.
 */
export async function startContractGateway(models: ContractChannelModels): Promise<ContractGateway> {
  const workFolder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-contract-"));
  const upstreamKey = `upstream-${crypto.randomBytes(8).toString("hex")}`;
  const fakeOpenai = await startFakeOpenaiServer({ apiKey: upstreamKey });
  const fakeNative = await startFakeNativeServer({ apiKey: upstreamKey });
  const fakeAnthropic = await startFakeAnthropicServer({ apiKey: upstreamKey });
  const allModels = [...new Set([...models.openai, ...models.native, ...models.anthropic, ...models.disabled])];
  const price = { input: 1, output: 2, cached_input: 0.5, per_image: 0.04, per_second: 0.1, per_call: 0.01 };
  const configFile = path.join(workFolder, "gateway.yaml");
  // Short enough that the 504 checks stay quick, long enough for the fakes on loopback.
  const upstreamHeaderTimeoutMs = 1_500;
  fs.writeFileSync(
    configFile,
    YAML.stringify({
      channels: [
        { name: "contract-openai", type: "openai", base_url: fakeOpenai.url, key: upstreamKey, models: models.openai },
        { name: "contract-native", type: "native", base_url: fakeNative.url, key: upstreamKey, models: models.native },
        {
          name: "contract-anthropic",
          type: "anthropic",
          base_url: fakeAnthropic.url,
          key: upstreamKey,
          models: models.anthropic,
        },
        ...(models.disabled.length > 0
          ? [
              { name: "contract-openai-disabled", type: "openai", base_url: fakeOpenai.url, key: upstreamKey },
              { name: "contract-native-disabled", type: "native", base_url: fakeNative.url, key: upstreamKey },
              { name: "contract-anthropic-disabled", type: "anthropic", base_url: fakeAnthropic.url, key: upstreamKey },
            ].map((channel) => ({ ...channel, models: models.disabled, enabled: false }))
          : []),
      ],
      pricing: Object.fromEntries(allModels.map((model) => [model, price])),
      timeouts: { header_ms: upstreamHeaderTimeoutMs },
      // One attempt and no cooldown: each provoked 502/504 costs one upstream call and leaves the channel usable.
      relay: { max_attempts: 1, cooldown_after_failures: 1_000_000 },
      // Video tasks finish within a few polls on the fake: the download, content and remix checks wait for that.
      tasks: { poll_interval_ms: 50 },
      // The checks reveal keys far more often than a person would.
      key_reveal_rate_limit: { points: 10_000, duration_seconds: 60 },
    }),
  );
  const [port] = await findFreePorts(1);
  const adminToken = `contract-admin-${crypto.randomBytes(12).toString("hex")}`;
  const logFile = path.join(workFolder, "gateway.log");
  const managementBodyLimitBytes = 64 * 1024;
  const jsonBodyLimitBytes = 2 * 1024 * 1024;
  const child = spawn(
    process.execPath,
    [path.join(projectRoot, "node_modules", "tsx", "dist", "cli.mjs"), path.join(projectRoot, "src", "main.ts")],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: `sqlite:${path.join(workFolder, "gateway.db")}`,
        GATEWAY_SECRET: crypto.randomBytes(24).toString("base64url"),
        GATEWAY_ADMIN_TOKEN: adminToken,
        GATEWAY_CONFIG: configFile,
        LOG_FILE: logFile,
        LOG_LEVEL: "info",
        MANAGEMENT_BODY_LIMIT: `${managementBodyLimitBytes / 1024}kb`,
        JSON_BODY_LIMIT: `${jsonBodyLimitBytes / 1024}kb`,
        SHUTDOWN_GRACE_MS: "2000",
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exitCode: number | null | undefined;
  child.on("exit", (code) => {
    exitCode = code;
  });
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (exitCode === undefined) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (exitCode === undefined) child.kill("SIGKILL");
    }
    await Promise.all([fakeOpenai.close(), fakeNative.close(), fakeAnthropic.close()]);
    fs.rmSync(workFolder, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/api/user/self`, {
      timeoutMs: 60_000,
      isDead: () => (exitCode === undefined ? undefined : `the gateway exited with code ${exitCode}:\n${stderr}`),
    });
  } catch (error) {
    await close();
    throw error;
  }
  const setUpstreamFault = (fault: FaultPlan | undefined) => {
    // An empty plan rather than reset(): reset would also drop state such as stored Responses.
    for (const upstream of [fakeOpenai, fakeNative, fakeAnthropic]) upstream.setFaults(fault ?? {});
  };
  return {
    url,
    adminToken,
    managementBodyLimitBytes,
    jsonBodyLimitBytes,
    logFile,
    upstreamHeaderTimeoutMs,
    setUpstreamFault,
    close,
  };
}

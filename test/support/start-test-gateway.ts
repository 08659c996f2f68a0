import crypto from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import YAML from "yaml";
import { createGatewayClient, type GatewayClient } from "../../src/client/create-gateway-client.js";
import { createGatewayServer } from "../../src/http/create-gateway-server.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createGateway, type Gateway } from "../../src/create-gateway.js";
import { createLogger } from "../../src/logging/logger.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { tapResponsesForKeys } from "./tap-responses-for-keys.js";
import { testLogFolder } from "./test-log-folder.js";

export interface TestGateway {
  url: string;
  gateway: Gateway;
  adminToken: string;
  /** Typed clients signed in as root. */
  client: GatewayClient;
  clientFor(credentials: { accessToken?: string; apiKey?: string }): GatewayClient;
  close(): Promise<void>;
}

export interface StartTestGatewayOptions {
  database: GatewayDatabase;
  /** The GATEWAY_CONFIG file's content, written to a temporary file. */
  configFile?: Record<string, unknown>;
  environment?: Record<string, string>;
  now?: () => number;
  /** Log here instead of the shared scanned folder (a test that reads its own log lines). */
  logFile?: string;
}

/** A real gateway on 127.0.0.1 and a random port, with response validation on, logging to the scanned folder. */
export async function startTestGateway(options: StartTestGatewayOptions): Promise<TestGateway> {
  fs.mkdirSync(testLogFolder, { recursive: true });
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  const environment: Record<string, string> = {
    DATABASE_URL: "sqlite::memory:",
    GATEWAY_SECRET: "test-secret-0123456789abcdef",
    GATEWAY_ADMIN_TOKEN: adminToken,
    VALIDATE_RESPONSES: "true",
    LOG_LEVEL: "debug",
    ...options.environment,
  };
  // Tests reveal many keys; a test of the limit itself sets its own key_reveal_rate_limit. Tests provoke upstream
  // 401s and 403s on purpose and expect the channel to stay: channel health tests set their own channel_health.
  const configFile = {
    key_reveal_rate_limit: { points: 100_000, duration_seconds: 1 },
    channel_health: { disable_after_failures: 0 },
    ...options.configFile,
  };
  const file = path.join(testLogFolder, `config-${crypto.randomBytes(6).toString("hex")}.yaml`);
  fs.writeFileSync(file, YAML.stringify(configFile));
  environment.GATEWAY_CONFIG ??= file;
  const config = loadConfig(environment);
  const logger = createLogger({
    level: config.logLevel,
    file: options.logFile ?? path.join(testLogFolder, `gateway-${process.pid}.log`),
  });
  const gateway = await createGateway(config, logger, {
    database: options.database,
    ...(options.now ? { now: options.now } : {}),
  });
  const server = createGatewayServer(gateway.app);
  tapResponsesForKeys(server, testLogFolder, collectConfigChannelKeys(configFile));
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    gateway,
    adminToken,
    client: createGatewayClient({ baseUrl: url, accessToken: adminToken }),
    clientFor: (credentials) => createGatewayClient({ baseUrl: url, ...credentials }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
    },
  };
}

/** The configured channels' keys that are long enough to look for (short made-up ones would match words). */
function collectConfigChannelKeys(configFile: Record<string, unknown>): string[] {
  const channels = (configFile.channels as Array<{ key?: unknown; keys?: unknown }> | undefined) ?? [];
  return channels
    .flatMap((channel) => [channel.key, ...(Array.isArray(channel.keys) ? channel.keys : [])])
    .filter((key): key is string => typeof key === "string" && key.length >= 10);
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/gateway-error.js";
import { createGateway, findProviderAdapter } from "../create-gateway.js";
import { createLogger } from "../logging/logger.js";
import { assertConfigChannelSettingsFit } from "./assert-config-channel-settings-fit.js";
import { loadConfig } from "./load-config.js";

function loadWith(yaml: string) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gateway-config-")), "config.yaml");
  fs.writeFileSync(file, yaml);
  const config = loadConfig({
    DATABASE_URL: "sqlite::memory:",
    GATEWAY_SECRET: "test-secret-0123456789abcdef",
    GATEWAY_CONFIG: file,
  });
  // The composition step that follows loading: the adapters' declared shapes are checked against the file.
  assertConfigChannelSettingsFit(config.channels, findProviderAdapter);
  return config;
}

const azureChannel = (settings: string) =>
  `channels:\n  - { name: azure-eu, type: azure, base_url: https://myres.openai.azure.com, key: k, models: [gpt-4o], settings: ${settings} }\n`;

describe("GATEWAY_CONFIG channel settings", () => {
  it("reads the settings the channel type declares", () => {
    expect(loadWith(azureChannel('{ api_version: "2024-10-21" }')).channels[0]?.settings).toEqual({
      api_version: "2024-10-21",
    });
  });

  it("refuses a typo at start, naming the channel and the key", () => {
    expect(() => loadWith(azureChannel('{ api_verison: "2024-10-21" }'))).toThrow(ConfigurationError);
    expect(() => loadWith(azureChannel('{ api_verison: "2024-10-21" }'))).toThrow(
      'GATEWAY_CONFIG: channel "azure-eu" settings: unknown key "api_verison" (azure channels take api_version).',
    );
    expect(() => loadWith(azureChannel("{}"))).toThrow(/"api_version" is required for azure channels/);
  });

  it("gives types without settings none", () => {
    expect(() =>
      loadWith(
        "channels:\n  - { name: o, type: openai, base_url: https://x.example, key: k, models: [m], settings: { region: x } }\n",
      ),
    ).toThrow(/unknown key "region" \(openai channels take no settings\)/);
    expect(
      loadWith("channels:\n  - { name: o, type: openai, base_url: https://x.example, key: k, models: [m] }\n")
        .channels[0]?.settings,
    ).toEqual({});
  });
});

describe("GATEWAY_CONFIG channel timeouts", () => {
  const openaiChannel = (timeouts: string) =>
    `channels:\n  - { name: o, type: openai, base_url: https://x.example, key: k, models: [m], timeouts: ${timeouts} }\n`;

  // A timer longer than Node.js keeps fires at once: 2^32 ms would have timed every connection out after 1 ms.
  it("takes timeouts up to the longest timer Node.js keeps and refuses a longer one at start", () => {
    expect(loadWith(openaiChannel("{ connect_ms: 2147483647 }")).channels[0]?.timeouts.connectMs).toBe(2_147_483_647);
    expect(() => loadWith(openaiChannel("{ idle_ms: 4294967296 }"))).toThrow(ConfigurationError);
    expect(() => loadWith(openaiChannel("{ idle_ms: 4294967296 }"))).toThrow(/idle_ms/);
  });
});

describe("GATEWAY_CONFIG channel priority and weight", () => {
  const channel = (fields: string) =>
    `channels:\n  - { name: o, type: openai, base_url: https://x.example, key: k, models: [m], ${fields} }\n`;

  // The management spec's ranges: 1e20 is an integer to JSON Schema, and PostgreSQL's bigint refused it (500).
  it("takes a 32-bit priority and weight and refuses larger ones at start", () => {
    const loaded = loadWith(channel("priority: -2147483648, weight: 2147483647")).channels[0];
    expect([loaded?.priority, loaded?.weight]).toEqual([-2_147_483_648, 2_147_483_647]);
    expect(() => loadWith(channel("priority: 100000000000000000000"))).toThrow(/priority/);
    expect(() => loadWith(channel("weight: 2147483648"))).toThrow(/weight/);
  });
});

describe("GATEWAY_CONFIG channel health", () => {
  // Every millisecond, not every 2^32 seconds: Node.js fires a timer longer than it keeps at once.
  it("refuses a probe interval no timer holds, and counts past a 32-bit integer, at start", () => {
    const health = (rules: string) => `channel_health: ${rules}\n`;
    expect(loadWith(health("{ probe_interval_seconds: 2147483 }")).channelHealth.probeIntervalSeconds).toBe(2_147_483);
    expect(() => loadWith(health("{ probe_interval_seconds: 2147484 }"))).toThrow(/probe_interval_seconds/);
    expect(() => loadWith(health("{ disable_after_failures: 4294967296 }"))).toThrow(/disable_after_failures/);
  });
});

describe("createGateway with GATEWAY_CONFIG channel settings", () => {
  it("refuses settings that do not fit before it opens anything", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gateway-config-")), "config.yaml");
    fs.writeFileSync(file, azureChannel('{ api_verison: "2024-10-21" }'));
    const config = loadConfig({
      DATABASE_URL: "sqlite::memory:",
      GATEWAY_SECRET: "test-secret-0123456789abcdef",
      GATEWAY_CONFIG: file,
    });
    await expect(createGateway(config, createLogger({ level: "silent" }))).rejects.toThrow(
      'GATEWAY_CONFIG: channel "azure-eu" settings: unknown key "api_verison" (azure channels take api_version).',
    );
  });
});

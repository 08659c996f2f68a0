import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Channel } from "./contract/channel.js";
import { findProjectRoot } from "../http/find-project-root.js";
import { loadBundledSpec } from "../http/load-bundled-spec.js";
import type { RelayCapability } from "./contract/provider-adapter.js";
import { providerRegistry } from "./registry.js";

const capabilities: readonly RelayCapability[] = [
  "chat",
  "responses",
  "embeddings",
  "images",
  "speech",
  "transcription",
  "nativeGeneration",
  "nativeEmbedding",
  "videoSubmission",
  "messages",
];

function specChannelTypes(): string[] {
  const spec = loadBundledSpec("management") as { components: { schemas: { ChannelType: { enum: string[] } } } };
  return spec.components.schemas.ChannelType.enum;
}

function sourceFilesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && file.endsWith(".ts") && !file.endsWith(".test.ts") ? [file] : [];
  });
}

describe("the provider registry", () => {
  it("has one adapter per channel type of the spec, filed under its own type, and nothing else", () => {
    const types = specChannelTypes();
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(Object.hasOwn(providerRegistry, type), `adapter for ${type}`).toBe(true);
    expect(Object.keys(providerRegistry).sort()).toEqual([...types].sort());
    for (const [type, adapter] of Object.entries(providerRegistry)) expect(adapter.type).toBe(type);
  });

  it("lists what each adapter serves", () => {
    const served = Object.fromEntries(
      Object.entries(providerRegistry).map(([type, adapter]) => [
        type,
        capabilities.filter((capability) => capability in adapter),
      ]),
    );
    // The adapters named here serve exactly these; an adapter added later is listed by its own tests.
    expect(served).toMatchObject({
      openai: ["chat", "responses", "embeddings", "images", "speech", "transcription", "videoSubmission", "messages"],
      native: ["chat", "responses", "embeddings", "images", "nativeGeneration", "nativeEmbedding", "videoSubmission"],
      ark: ["images", "videoSubmission"],
      dashscope: ["images", "videoSubmission"],
      anthropic: ["chat", "messages"],
      azure: ["chat", "responses", "embeddings", "images", "speech", "transcription"],
      vertex: ["chat", "responses", "images", "nativeGeneration"],
      bedrock: ["chat"],
    });
    expect("messageTokenCount" in providerRegistry.anthropic).toBe(true);
    expect("nativeVoices" in providerRegistry.native).toBe(true);
    expect("nativeCountTokens" in providerRegistry.native).toBe(true);
    // Video tasks: an adapter serves the submission exactly when it has the task capability (polls use it).
    for (const adapter of Object.values(providerRegistry))
      expect([adapter.type, "videoTasks" in adapter]).toEqual([adapter.type, "videoSubmission" in adapter]);
  });

  it("puts a channel key upstream only in the adapter's credential headers", () => {
    expect(providerRegistry.openai.credentialHeaders("k1")).toEqual({ authorization: "Bearer k1" });
    expect(providerRegistry.native.credentialHeaders("k1")).toEqual({ "x-goog-api-key": "k1" });
    expect(providerRegistry.ark.credentialHeaders("k1")).toEqual({ authorization: "Bearer k1" });
    expect(providerRegistry.dashscope.credentialHeaders("k1")).toEqual({ authorization: "Bearer k1" });
    expect(providerRegistry.anthropic.credentialHeaders("k1")).toEqual({
      "x-api-key": "k1",
      "anthropic-version": "2023-06-01",
    });
    expect(providerRegistry.azure.credentialHeaders("k1")).toEqual({ "api-key": "k1" });
    const channel: Channel = {
      id: 1,
      source: "config",
      name: "test",
      type: "openai",
      baseUrl: "https://upstream.example",
      keys: ["k1"],
      models: ["some-model"],
      modelMapping: {},
      groups: ["default"],
      priority: 0,
      weight: 1,
      enabled: true,
      timeouts: { connectMs: 1, headerMs: 1, idleMs: 1 },
      settings: { api_version: "2024-10-21" },
    };
    for (const adapter of Object.values(providerRegistry))
      expect(JSON.stringify(adapter.channelTestRequest("some-model", channel))).not.toContain("k1");
  });

  it("leaves no handler under src/api switching on a channel type", () => {
    const channelTypePattern = new RegExp(
      String.raw`channel\.type|case\s+["'](${specChannelTypes().join("|")})["']|type\s*===?\s*["'](${specChannelTypes().join("|")})["']`,
    );
    const offenders = sourceFilesUnder(path.join(findProjectRoot(), "src", "api")).filter((file) =>
      channelTypePattern.test(fs.readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});

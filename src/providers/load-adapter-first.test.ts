import { describe, expect, it, vi } from "vitest";

// The registry imports the adapters, and the relay imports the registry: provider code must never import the
// relay's or the registry's values back, or loading an adapter first (as its own tests do) meets an
// uninitialised binding. Each module is loaded here first, in a fresh module graph.
const firstImports = {
  "openai/adapter": () => import("./openai/adapter.js"),
  "native/adapter": () => import("./native/adapter.js"),
  "ark/adapter": () => import("./ark/adapter.js"),
  "dashscope/adapter": () => import("./dashscope/adapter.js"),
  "anthropic/adapter": () => import("./anthropic/adapter.js"),
  "azure/adapter": () => import("./azure/adapter.js"),
  "vertex/adapter": () => import("./vertex/adapter.js"),
  "bedrock/adapter": () => import("./bedrock/adapter.js"),
  registry: () => import("./registry.js"),
  "relay/run-relay": () => import("../relay/run-relay.js"),
  "config/load-config": () => import("../config/load-config.js"),
} as const;

describe("loading provider modules in any order", () => {
  it.each(Object.keys(firstImports))("loads %s first, then the whole registry", async (name) => {
    vi.resetModules();
    await firstImports[name as keyof typeof firstImports]();
    const { providerRegistry } = await import("./registry.js");
    expect(Object.keys(providerRegistry)).toEqual([
      "openai",
      "native",
      "ark",
      "dashscope",
      "anthropic",
      "azure",
      "vertex",
      "bedrock",
    ]);
    expect(providerRegistry.native.type).toBe("native");
  });
});

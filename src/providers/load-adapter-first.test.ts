import { describe, expect, it, vi } from "vitest";
import { channelTypeValues } from "../../generated/types/management.js";

// The registry imports the adapters, and the composition root imports the registry: provider code must never
// import the relay's or the registry's values back, or loading an adapter first (as its own tests do) meets an
// uninitialised binding. Each module is loaded here first, in a fresh module graph; the adapters are the spec's
// channel types, each in its own folder.
const firstImports: Record<string, () => Promise<unknown>> = {
  ...Object.fromEntries(
    channelTypeValues.map((type) => [`${type}/adapter`, () => import(`./${type}/adapter.ts`)] as const),
  ),
  registry: () => import("./registry.js"),
  "relay/run-relay": () => import("../relay/run-relay.js"),
  "config/load-config": () => import("../config/load-config.js"),
};

describe("loading provider modules in any order", () => {
  it.each(Object.keys(firstImports))("loads %s first, then the whole registry", async (name) => {
    vi.resetModules();
    await firstImports[name]?.();
    const { providerRegistry } = await import("./registry.js");
    expect(Object.keys(providerRegistry)).toEqual([...channelTypeValues]);
    expect(providerRegistry.native.type).toBe("native");
  });
});

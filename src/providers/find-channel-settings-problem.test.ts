import { describe, expect, it } from "vitest";
import type { ChannelType } from "./contract/channel-type.js";
import type { ProviderAdapterLookup } from "./contract/provider-adapter-lookup.js";
import { findChannelSettingsProblem as findProblemInShape } from "./find-channel-settings-problem.js";
import { providerRegistry } from "./registry.js";

/** Each type's shape as the composition root hands it down: declared by the type's adapter in the registry. */
const findAdapter: ProviderAdapterLookup = (type) => providerRegistry[type];
const findChannelSettingsProblem = (type: ChannelType, settings: unknown) =>
  findProblemInShape(type, settings, findAdapter(type).settingsShape);

describe("findChannelSettingsProblem", () => {
  it("accepts settings that fit the type's declared shape", () => {
    expect(findChannelSettingsProblem("azure", { api_version: "2024-10-21" })).toBeUndefined();
    expect(findChannelSettingsProblem("azure", { api_version: "v1" })).toBeUndefined();
    expect(findChannelSettingsProblem("azure", { api_version: "2025-04-01-preview" })).toBeUndefined();
    expect(findChannelSettingsProblem("openai", undefined)).toBeUndefined();
    expect(findChannelSettingsProblem("openai", {})).toBeUndefined();
  });

  it("names an unknown key, a missing required key and a value of the wrong form", () => {
    expect(findChannelSettingsProblem("azure", { api_version: "v1", api_versoin: "v1" })).toEqual({
      key: "api_versoin",
      message: 'settings: unknown key "api_versoin" (azure channels take api_version).',
    });
    expect(findChannelSettingsProblem("azure", {})).toEqual({
      key: "api_version",
      message: 'settings: "api_version" is required for azure channels.',
    });
    expect(findChannelSettingsProblem("azure", { api_version: "latest" })).toEqual({
      key: "api_version",
      message: 'settings: "api_version" must look like "2024-10-21".',
    });
    expect(findChannelSettingsProblem("openai", { region: "us-east-1" })).toEqual({
      key: "region",
      message: 'settings: unknown key "region" (openai channels take no settings).',
    });
    expect(findChannelSettingsProblem("openai", ["x"])?.key).toBe("settings");
  });
});

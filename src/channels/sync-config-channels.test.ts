import { describe, expect, it } from "vitest";
import type { ConfiguredChannel } from "../config/gateway-config.js";
import { findChannelById } from "../store/channels/find-channel-by-id.js";
import { listAllChannels } from "../store/channels/list-all-channels.js";
import { openTestDatabases } from "../store/testing/open-test-databases.js";
import { createTestChannelContext } from "./create-test-channel-context.js";
import { decryptChannelKeys } from "./decrypt-channel-keys.js";
import { syncConfigChannels } from "./sync-config-channels.js";

const testDatabases = await openTestDatabases();

function configured(name: string, overrides: Partial<ConfiguredChannel> = {}): ConfiguredChannel {
  return {
    name,
    type: "openai",
    baseUrl: "https://upstream.example",
    keys: [`sk-${name}-first-key`, `sk-${name}-second-key`],
    models: ["model-a"],
    modelMapping: { "model-a": "upstream-a" },
    groups: ["default", "vip"],
    priority: 3,
    weight: 2,
    enabled: true,
    timeouts: { connectMs: 1000, headerMs: 2000, idleMs: 3000 },
    settings: {},
    ...overrides,
  };
}

describe.each(testDatabases)("syncConfigChannels on $name", ({ database }) => {
  it("upserts the configured channels, keeps their ids and removes the ones dropped from the file", async () => {
    const base = createTestChannelContext(database);
    const apiChannel = await base.addChannel("from-file");

    const first = {
      ...base,
      config: { ...base.config, channels: [configured("from-file"), configured("dropped later", { type: "native" })] },
    };
    await syncConfigChannels(first);
    const stored = (await listAllChannels(database.db)).filter((channel) => channel.source === "config");
    expect(stored.map((channel) => channel.name).sort()).toEqual(["dropped later", "from-file"]);
    const fromFile = stored.find((channel) => channel.name === "from-file")!;
    expect(fromFile).toMatchObject({
      type: "openai",
      baseUrl: "https://upstream.example",
      models: ["model-a"],
      modelMapping: { "model-a": "upstream-a" },
      groups: ["default", "vip"],
      priority: 3,
      weight: 2,
      enabled: true,
      settings: { timeouts: { connect_ms: 1000, header_ms: 2000, idle_ms: 3000 } },
      createdTime: 1_700_000_000,
    });
    expect(fromFile.keysEncrypted).not.toContain("sk-from-file");
    expect(decryptChannelKeys(base.keyCipher, fromFile.keysEncrypted)).toEqual([
      "sk-from-file-first-key",
      "sk-from-file-second-key",
    ]);

    const second = {
      ...base,
      now: () => 1_800_000_000,
      config: {
        ...base.config,
        channels: [configured("from-file", { priority: 9, enabled: false, keys: ["sk-replaced"] })],
      },
    };
    await syncConfigChannels(second);
    const config = (await listAllChannels(database.db)).filter((channel) => channel.source === "config");
    expect(config.map((channel) => channel.name)).toEqual(["from-file"]);
    expect(config[0]).toMatchObject({ id: fromFile.id, priority: 9, enabled: false, createdTime: 1_700_000_000 });
    expect(decryptChannelKeys(base.keyCipher, config[0].keysEncrypted)).toEqual(["sk-replaced"]);
    // The API channel of the same name is a different channel and stays.
    expect(await findChannelById(database.db, apiChannel.id)).toMatchObject({ source: "api", name: "from-file" });

    await syncConfigChannels({ ...base, config: { ...base.config, channels: [] } });
    expect((await listAllChannels(database.db)).filter((channel) => channel.source === "config")).toEqual([]);
    expect(await findChannelById(database.db, apiChannel.id)).not.toBeNull();
  });
});

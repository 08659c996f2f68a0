import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAllChannels } from "../../src/store/channels/list-all-channels.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const azureKey = "azureChannelKey0000000000000000Xy7";

describe.each(testDatabases)("channel settings through the admin API on $name", ({ database }) => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "config-azure",
            type: "azure",
            base_url: "https://myres.openai.azure.com",
            key: azureKey,
            models: ["gpt-4o"],
            settings: { api_version: "2024-10-21" },
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const azureBody = (name: string, settings: Record<string, unknown>) => ({
    name,
    type: "azure" as const,
    base_url: "https://myres.openai.azure.com",
    key: azureKey,
    models: ["gpt-4o"],
    settings,
  });

  it("shows a configuration file channel's settings, keys masked", async () => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { size: 50 } } });
    const channel = list.data!.data.items.find((item) => item.name === "config-azure")!;
    expect(channel).toMatchObject({ type: "azure", settings: { api_version: "2024-10-21" } });
    expect(JSON.stringify(list.data)).not.toContain(azureKey);
  });

  it("refuses settings that do not fit the type, naming the key", async () => {
    const typo = await gateway.client.management.POST("/api/channel/", {
      body: azureBody("typo", { api_verison: "2024-10-21" } as Record<string, unknown>),
    });
    expect([typo.response.status, typo.error]).toEqual([
      400,
      { success: false, message: 'settings: unknown key "api_verison" (azure channels take api_version).' },
    ]);
    const missing = await gateway.client.management.POST("/api/channel/", { body: azureBody("missing", {}) });
    expect([missing.response.status, missing.error?.message]).toEqual([
      400,
      'settings: "api_version" is required for azure channels.',
    ]);
    const stored = await listAllChannels(database.db);
    expect(stored.map((channel) => channel.name)).not.toContain("typo");
  });

  it("stores the settings with the channel, keys encrypted, and checks them again when the type changes", async () => {
    const created = await gateway.client.management.POST("/api/channel/", {
      body: azureBody("api-azure", { api_version: "v1" }),
    });
    expect(created.response.status).toBe(200);
    const id = created.data!.data.id;
    expect(created.data!.data.settings).toEqual({ api_version: "v1" });
    const row = (await listAllChannels(database.db)).find((channel) => channel.id === id)!;
    expect(row.settings).toEqual({ provider: { api_version: "v1" } });
    expect(row.keysEncrypted).not.toContain(azureKey);
    expect(gateway.gateway.context.channelRouter.findChannel(id)?.settings).toEqual({ api_version: "v1" });

    const updated = await gateway.client.management.PUT("/api/channel/", {
      body: { id, settings: { api_version: "2025-04-01-preview" }, timeouts: { connect_ms: 900 } },
    });
    expect(updated.data!.data).toMatchObject({
      settings: { api_version: "2025-04-01-preview" },
      timeouts: { connect_ms: 900 },
    });
    // Other changes keep both.
    const renamed = await gateway.client.management.PUT("/api/channel/", { body: { id, name: "api-azure-2" } });
    expect(renamed.data!.data).toMatchObject({
      settings: { api_version: "2025-04-01-preview" },
      timeouts: { connect_ms: 900 },
    });

    const toOpenai = await gateway.client.management.PUT("/api/channel/", { body: { id, type: "openai" } });
    expect([toOpenai.response.status, toOpenai.error?.message]).toEqual([
      400,
      'settings: unknown key "api_version" (openai channels take no settings).',
    ]);
    const cleared = await gateway.client.management.PUT("/api/channel/", {
      body: { id, type: "openai", settings: {} },
    });
    expect(cleared.response.status).toBe(200);
    expect(cleared.data!.data.settings).toBeUndefined();
    expect(cleared.data!.data.timeouts).toEqual({ connect_ms: 900 });
  });
});

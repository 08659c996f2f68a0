import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import type { ChannelInput } from "./channel-input.js";
import { countChannels } from "./count-channels.js";
import { deleteChannel } from "./delete-channel.js";
import { findChannelById } from "./find-channel-by-id.js";
import { insertChannel } from "./insert-channel.js";
import { listChannels } from "./list-channels.js";
import { updateChannel } from "./update-channel.js";
import { upsertConfigChannel } from "./upsert-config-channel.js";

const testDatabases = await openTestDatabases();

function channelInput(name: string, overrides: Partial<ChannelInput> = {}): ChannelInput {
  return {
    name,
    type: "openai",
    baseUrl: "https://upstream.example",
    keysEncrypted: "encrypted-keys",
    models: ["gpt-4o"],
    createdTime: 1_700_000_000,
    ...overrides,
  };
}

describe.each(testDatabases)("channels on $name", ({ database }) => {
  const { db } = database;

  it("inserts a channel with defaults and parses its JSON columns", async () => {
    const channel = await insertChannel(db, channelInput("defaults"));
    expect(channel).toEqual({
      id: expect.any(Number),
      name: "defaults",
      type: "openai",
      baseUrl: "https://upstream.example",
      keysEncrypted: "encrypted-keys",
      models: ["gpt-4o"],
      modelMapping: {},
      groups: ["default"],
      priority: 0,
      weight: 1,
      enabled: true,
      source: "api",
      settings: {},
      createdTime: 1_700_000_000,
    });
    expect(await findChannelById(db, channel.id)).toEqual(channel);
    expect(await findChannelById(db, channel.id + 100_000)).toBeNull();
  });

  it("stores every field", async () => {
    const channel = await insertChannel(
      db,
      channelInput("full", {
        type: "native",
        models: ["gmx-3.5-flash", "gmx-3.1-pro-preview"],
        modelMapping: { "gmx-3.5-flash": "upstream-flash" },
        groups: ["default", "vip"],
        priority: 10,
        weight: 3,
        enabled: false,
        settings: { timeouts: { connect_ms: 1000, idle_ms: 30_000 } },
      }),
    );
    expect(await findChannelById(db, channel.id)).toMatchObject({
      type: "native",
      models: ["gmx-3.5-flash", "gmx-3.1-pro-preview"],
      modelMapping: { "gmx-3.5-flash": "upstream-flash" },
      groups: ["default", "vip"],
      priority: 10,
      weight: 3,
      enabled: false,
      settings: { timeouts: { connect_ms: 1000, idle_ms: 30_000 } },
    });
  });

  it("keeps names unique within a source only", async () => {
    await insertChannel(db, channelInput("shared name"));
    await expect(insertChannel(db, channelInput("shared name"))).rejects.toThrow();
    expect(await insertChannel(db, channelInput("shared name"), "config")).toMatchObject({ source: "config" });
  });

  it("lists pages by id and counts", async () => {
    const total = await countChannels(db);
    const all = await listChannels(db, { limit: 1000, offset: 0 });
    expect(all).toHaveLength(total);
    const ids = all.map((channel) => channel.id);
    expect(ids).toEqual([...ids].sort((left, right) => left - right));
    expect(await listChannels(db, { limit: 2, offset: 1 })).toEqual(all.slice(1, 3));
    await insertChannel(db, channelInput("counted"));
    expect(await countChannels(db)).toBe(total + 1);
  });

  it("patches only the given fields, optionally only for one source", async () => {
    const channel = await insertChannel(db, channelInput("patched", { groups: ["a"] }));
    const updated = await updateChannel(db, channel.id, {
      baseUrl: "https://other.example",
      models: ["m1", "m2"],
      modelMapping: { m1: "u1" },
      enabled: false,
      weight: 0,
      settings: { timeouts: { header_ms: 5 } },
    });
    expect(updated).toEqual({
      ...channel,
      baseUrl: "https://other.example",
      models: ["m1", "m2"],
      modelMapping: { m1: "u1" },
      enabled: false,
      weight: 0,
      settings: { timeouts: { header_ms: 5 } },
    });
    expect(await updateChannel(db, channel.id, {})).toEqual(updated);
    expect(await updateChannel(db, channel.id + 100_000, { name: "x" })).toBeNull();

    const fromConfig = await upsertConfigChannel(db, channelInput("read-only"));
    expect(await updateChannel(db, fromConfig.id, { name: "changed" }, { onlySource: "api" })).toBeNull();
    expect((await findChannelById(db, fromConfig.id))?.name).toBe("read-only");
  });

  it("deletes a channel, optionally only for one source", async () => {
    const channel = await insertChannel(db, channelInput("deleted"));
    const fromConfig = await upsertConfigChannel(db, channelInput("kept"));
    expect(await deleteChannel(db, fromConfig.id, { onlySource: "api" })).toBe(false);
    expect(await deleteChannel(db, channel.id, { onlySource: "api" })).toBe(true);
    expect(await deleteChannel(db, channel.id)).toBe(false);
    expect(await findChannelById(db, channel.id)).toBeNull();
    expect(await findChannelById(db, fromConfig.id)).not.toBeNull();
  });

  it("upserts a config channel by name, keeping its id and created time", async () => {
    const first = await upsertConfigChannel(db, channelInput("from file", { createdTime: 100, priority: 1 }));
    const second = await upsertConfigChannel(
      db,
      channelInput("from file", { createdTime: 200, priority: 2, models: ["new-model"], enabled: false }),
    );
    expect(second).toEqual({ ...first, priority: 2, models: ["new-model"], enabled: false });
    expect(second.source).toBe("config");
    expect(second.createdTime).toBe(100);
  });
});

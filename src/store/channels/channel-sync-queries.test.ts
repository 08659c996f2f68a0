import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import type { ChannelInput } from "./channel-input.js";
import { deleteConfigChannelsExcept } from "./delete-config-channels-except.js";
import { findChannelById } from "./find-channel-by-id.js";
import { insertChannel } from "./insert-channel.js";
import { listAllChannels } from "./list-all-channels.js";
import { upsertConfigChannel } from "./upsert-config-channel.js";

const testDatabases = await openTestDatabases();

function channelInput(name: string, overrides: Partial<ChannelInput> = {}): ChannelInput {
  return {
    name,
    type: "openai",
    baseUrl: "https://upstream.example",
    keysEncrypted: "encrypted",
    models: ["m"],
    createdTime: 1,
    ...overrides,
  };
}

describe.each(testDatabases)("channel sync queries on $name", ({ database }) => {
  const { db } = database;

  it("removes only the config channels not kept, never API channels", async () => {
    const kept = await upsertConfigChannel(db, channelInput("kept"));
    const dropped = await upsertConfigChannel(db, channelInput("dropped"));
    const fromApi = await insertChannel(db, channelInput("dropped"));
    expect(await deleteConfigChannelsExcept(db, ["kept", "not-there"])).toBe(1);
    expect(await findChannelById(db, kept.id)).not.toBeNull();
    expect(await findChannelById(db, dropped.id)).toBeNull();
    expect(await findChannelById(db, fromApi.id)).not.toBeNull();

    expect(await deleteConfigChannelsExcept(db, [])).toBe(1);
    expect(await findChannelById(db, kept.id)).toBeNull();
    expect(await findChannelById(db, fromApi.id)).not.toBeNull();
  });

  it("lists every channel, disabled ones too, highest priority first", async () => {
    const off = await insertChannel(db, channelInput("all off", { enabled: false, priority: 7 }));
    const low = await insertChannel(db, channelInput("all low", { priority: -7 }));
    const all = await listAllChannels(db);
    const ids = all.map((channel) => channel.id);
    expect(ids).toContain(off.id);
    expect(ids.indexOf(off.id)).toBeLessThan(ids.indexOf(low.id));
    const priorities = all.map((channel) => channel.priority);
    expect(priorities).toEqual([...priorities].sort((left, right) => right - left));
  });
});

import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import {
  deleteChannelHealth,
  deleteChannelHealthRows,
  insertChannelHealthIfAbsent,
  listChannelHealth,
  upsertChannelHealth,
  type ChannelHealthRecord,
} from "./channel-health-queries.js";
import { listChannelLastTests, saveChannelLastTest } from "./channel-last-test-queries.js";

const testDatabases = await openTestDatabases();

const autoDisabled = (channelId: number, keyIndex: number): ChannelHealthRecord => ({
  channelId,
  keyIndex,
  state: "auto_disabled",
  reason: "unauthorized",
  upstreamStatus: 401,
  changedTime: 1_700_000_000,
});

describe.each(testDatabases)("channel health queries on $name", ({ database }) => {
  const { db } = database;

  it("lets one insert make a transition and never overwrites an administrator's decision", async () => {
    const results = await Promise.all([
      insertChannelHealthIfAbsent(db, autoDisabled(1, -1)),
      insertChannelHealthIfAbsent(db, autoDisabled(1, -1)),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    await upsertChannelHealth(db, {
      ...autoDisabled(1, 0),
      state: "disabled",
      reason: "by hand",
      upstreamStatus: null,
    });
    expect(await insertChannelHealthIfAbsent(db, autoDisabled(1, 0))).toBe(false);
    expect(await listChannelHealth(db)).toEqual([
      autoDisabled(1, -1),
      { ...autoDisabled(1, 0), state: "disabled", reason: "by hand", upstreamStatus: null },
    ]);
    // A probe only removes what it disabled itself.
    expect(await deleteChannelHealth(db, 1, 0, "auto_disabled")).toBe(false);
    expect(await deleteChannelHealth(db, 1, -1, "auto_disabled")).toBe(true);
    expect(await deleteChannelHealth(db, 1, -1, "auto_disabled")).toBe(false);
    await insertChannelHealthIfAbsent(db, autoDisabled(1, 2));
    await deleteChannelHealthRows(db, 1, { keysOnly: true });
    expect(await listChannelHealth(db)).toEqual([]);
  });

  it("keeps one last test per channel, the latest", async () => {
    const test = { channelId: 5, success: false, latencyMs: 12, model: "m", message: "401", testedTime: 1 };
    await saveChannelLastTest(db, test);
    await saveChannelLastTest(db, { ...test, success: true, message: "", testedTime: 2 });
    expect(await listChannelLastTests(db, [5, 6])).toEqual(
      new Map([[5, { ...test, success: true, message: "", testedTime: 2 }]]),
    );
    expect(await listChannelLastTests(db, [])).toEqual(new Map());
  });
});

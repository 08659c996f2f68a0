import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { deleteResponseRoutesBefore, findResponseRoutes, recordResponseRoutes } from "./response-route-queries.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("response routes on $name", ({ database }) => {
  const { db } = database;

  it("records where ids were made, keeps the first row of a repeated id, and finds them by id", async () => {
    await recordResponseRoutes(db, [
      { upstreamId: "resp_a", channelId: 7, keyIndex: 1, createdTime: 1_000 },
      { upstreamId: "msg_a", channelId: 7, keyIndex: 1, createdTime: 1_000 },
    ]);
    await recordResponseRoutes(db, [{ upstreamId: "resp_a", channelId: 9, keyIndex: 0, createdTime: 2_000 }]);
    const found = await findResponseRoutes(db, ["resp_a", "msg_a", "resp_unknown", "resp_a"], 0);
    expect([...found.values()].sort((left, right) => left.upstreamId.localeCompare(right.upstreamId))).toEqual([
      { upstreamId: "msg_a", channelId: 7, keyIndex: 1, createdTime: 1_000 },
      { upstreamId: "resp_a", channelId: 7, keyIndex: 1, createdTime: 1_000 },
    ]);
    expect(await findResponseRoutes(db, [], 0)).toEqual(new Map());
  });

  it("ignores routes past their retention and sweeps them", async () => {
    await recordResponseRoutes(db, [
      { upstreamId: "resp_old", channelId: 3, keyIndex: 0, createdTime: 5_000 },
      { upstreamId: "resp_new", channelId: 3, keyIndex: 0, createdTime: 9_000 },
    ]);
    expect([...(await findResponseRoutes(db, ["resp_old", "resp_new"], 8_000)).keys()]).toEqual(["resp_new"]);
    expect(await deleteResponseRoutesBefore(db, 8_000)).toBeGreaterThanOrEqual(1);
    expect([...(await findResponseRoutes(db, ["resp_old", "resp_new"], 0)).keys()]).toEqual(["resp_new"]);
  });
});

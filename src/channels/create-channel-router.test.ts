import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../store/open-database.js";
import type { ChannelRouter, RoutingToken } from "./channel-router.js";
import { createChannelRouter } from "./create-channel-router.js";
import { insertChannelHealthIfAbsent } from "../store/channel-health/channel-health-queries.js";
import { createTestChannelContext, type TestChannelContext } from "./create-test-channel-context.js";

const defaultToken: RoutingToken = { group: "", crossGroupRetry: false };

/** A small seeded generator (mulberry32), so the distribution test is repeatable. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

describe("createChannelRouter", () => {
  let context: TestChannelContext;
  let clockMs: number;
  const closeAfterAll: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(closeAfterAll.map((close) => close())));

  beforeEach(async () => {
    // A fresh database per test: each test lays out its own channels.
    const database = await openDatabase("sqlite::memory:");
    closeAfterAll.push(database.close);
    context = createTestChannelContext(database, {
      autoGroups: ["vip", "default"],
      relay: { maxAttempts: 3, cooldownAfterFailures: 2, cooldownSeconds: 30 },
    });
    clockMs = 1_000_000;
  });

  function createRouter(random: () => number = () => 0): Promise<ChannelRouter> {
    return createChannelRouter(context, { random, now: () => clockMs });
  }

  const planNames = (
    router: ChannelRouter,
    model = "model-a",
    token = defaultToken,
    userGroup = "default",
    maxAttempts = 10,
  ) => router.planAttempts(model, token, userGroup, maxAttempts).map((attempt) => attempt.channel.name);

  it("tries higher priorities first and stops at maxAttempts", async () => {
    await context.addChannel("low", { priority: -5 });
    await context.addChannel("high", { priority: 10 });
    await context.addChannel("middle", { priority: 0 });
    const router = await createRouter(seededRandom(1));
    expect(planNames(router)).toEqual(["high", "middle", "low"]);
    expect(planNames(router, "model-a", defaultToken, "default", 2)).toEqual(["high", "middle"]);
    expect(planNames(router, "model-a", defaultToken, "default", 0)).toEqual([]);
  });

  it("skips keys and channels their health took out, and tells a channel with no key left as disabled", async () => {
    const multi = await context.addChannel("multi", { keys: ["key-1", "key-2", "key-3"] });
    const solo = await context.addChannel("solo", { priority: -1 });
    const outOfKeys = await context.addChannel("out of keys", { keys: ["key-a"], models: ["model-z"] });
    const health = { state: "auto_disabled" as const, reason: "unauthorized", upstreamStatus: 401, changedTime: 1 };
    await insertChannelHealthIfAbsent(context.database.db, { channelId: multi.id, keyIndex: 1, ...health });
    await insertChannelHealthIfAbsent(context.database.db, { channelId: solo.id, keyIndex: -1, ...health });
    await insertChannelHealthIfAbsent(context.database.db, { channelId: outOfKeys.id, keyIndex: 0, ...health });
    const router = await createRouter();
    const keysUsed = Array.from({ length: 4 }, () => router.planAttempts("model-a", defaultToken, "default", 3));
    expect(keysUsed.map((plan) => plan.map((attempt) => [attempt.channel.name, attempt.keyIndex]))).toEqual([
      [["multi", 0]],
      [["multi", 2]],
      [["multi", 0]],
      [["multi", 2]],
    ]);
    expect(router.planAttemptOn("model-a", defaultToken, "default", { channelId: multi.id, keyIndex: 1 })).toBe(
      undefined,
    );
    expect(router.listDisabledChannels("model-z", defaultToken, "default").map((channel) => channel.name)).toEqual([
      "out of keys",
    ]);
    expect(router.readHealth(solo.id).records).toEqual([{ channelId: solo.id, keyIndex: -1, ...health }]);
    expect(router.countAutoDisabled()).toBe(3);
  });

  it("draws within a tier by weight", async () => {
    await context.addChannel("heavy", { weight: 3 });
    await context.addChannel("light", { weight: 1 });
    const router = await createRouter(seededRandom(42));
    const draws = 4000;
    let heavyFirst = 0;
    for (let draw = 0; draw < draws; draw += 1) {
      const plan = planNames(router);
      expect([...plan].sort()).toEqual(["heavy", "light"]);
      if (plan[0] === "heavy") heavyFirst += 1;
    }
    expect(heavyFirst / draws).toBeGreaterThan(0.72);
    expect(heavyFirst / draws).toBeLessThan(0.78);
  });

  it("uses the injected random source for the draw", async () => {
    await context.addChannel("first", { weight: 1 });
    await context.addChannel("second", { weight: 1 });
    expect(planNames(await createRouter(() => 0.25))).toEqual(["first", "second"]);
    expect(planNames(await createRouter(() => 0.75))).toEqual(["second", "first"]);
  });

  it("picks weight 0 only after the weighted channels of its tier, and when nothing else serves the model", async () => {
    await context.addChannel("spare", { weight: 0 });
    await context.addChannel("main", { weight: 1 });
    await context.addChannel("fallback", { weight: 5, priority: -1 });
    await context.addChannel("only spare", { weight: 0, models: ["model-b"] });
    const router = await createRouter(seededRandom(7));
    for (let draw = 0; draw < 50; draw += 1) expect(planNames(router)).toEqual(["main", "spare", "fallback"]);
    expect(planNames(router, "model-b")).toEqual(["only spare"]);
  });

  it("plans each channel at most once, even for a channel in several auto groups", async () => {
    await context.addChannel("both", { groups: ["vip", "default"] });
    const router = await createRouter();
    const plan = router.planAttempts("model-a", { group: "auto", crossGroupRetry: true }, "default", 10);
    expect(plan.map((attempt) => [attempt.channel.name, attempt.group])).toEqual([["both", "vip"]]);
  });

  it("resolves the token group: empty means the owner's group, otherwise the token's", async () => {
    await context.addChannel("default one", { groups: ["default"] });
    await context.addChannel("vip one", { groups: ["vip"] });
    const router = await createRouter();
    expect(planNames(router, "model-a", defaultToken, "default")).toEqual(["default one"]);
    expect(planNames(router, "model-a", defaultToken, "vip")).toEqual(["vip one"]);
    expect(planNames(router, "model-a", { group: "vip", crossGroupRetry: false }, "default")).toEqual(["vip one"]);
    expect(planNames(router, "model-a", defaultToken, "nobody")).toEqual([]);
    expect(planNames(router, "unknown-model")).toEqual([]);
    const [attempt] = router.planAttempts("model-a", { group: "vip", crossGroupRetry: false }, "default", 1);
    expect(attempt.group).toBe("vip");
  });

  it("walks auto_groups in order to the first group serving the model", async () => {
    await context.addChannel("default a", { groups: ["default"], models: ["model-a", "model-b"] });
    await context.addChannel("vip a", { groups: ["vip"], models: ["model-a"] });
    const router = await createRouter();
    const auto: RoutingToken = { group: "auto", crossGroupRetry: false };
    expect(
      router.planAttempts("model-a", auto, "default", 10).map((attempt) => [attempt.channel.name, attempt.group]),
    ).toEqual([["vip a", "vip"]]);
    expect(
      router.planAttempts("model-b", auto, "default", 10).map((attempt) => [attempt.channel.name, attempt.group]),
    ).toEqual([["default a", "default"]]);
    // The owner's group being auto means the same walk.
    expect(planNames(router, "model-a", defaultToken, "auto")).toEqual(["vip a"]);
  });

  it("continues into the later auto groups with cross_group_retry", async () => {
    await context.addChannel("default low", { groups: ["default"], priority: -1 });
    await context.addChannel("default high", { groups: ["default"], priority: 1 });
    await context.addChannel("vip a", { groups: ["vip"] });
    await context.addChannel("other", { groups: ["other"] });
    const router = await createRouter();
    const plan = router.planAttempts("model-a", { group: "auto", crossGroupRetry: true }, "default", 10);
    expect(plan.map((attempt) => [attempt.channel.name, attempt.group])).toEqual([
      ["vip a", "vip"],
      ["default high", "default"],
      ["default low", "default"],
    ]);
    expect(router.planAttempts("model-a", { group: "auto", crossGroupRetry: true }, "default", 2)).toHaveLength(2);
  });

  it("cools a channel down after repeated failures, probes it afterwards and resets on success", async () => {
    await context.addChannel("primary", { priority: 1 });
    await context.addChannel("backup", { priority: 0 });
    const router = await createRouter();
    const primary = router.planAttempts("model-a", defaultToken, "default", 1)[0].channel.id;

    router.reportFailure(primary, "request-under-test");
    expect(planNames(router)).toEqual(["primary", "backup"]);
    router.reportFailure(primary, "request-under-test");
    // Cooling down: last, but still there when nothing else is left.
    expect(planNames(router)).toEqual(["backup", "primary"]);

    clockMs += 29_999;
    expect(planNames(router)).toEqual(["backup", "primary"]);
    clockMs += 1;
    expect(planNames(router)).toEqual(["primary", "backup"]);

    // The probe failed: one failure is enough to cool it down again.
    router.reportFailure(primary, "request-under-test");
    expect(planNames(router)).toEqual(["backup", "primary"]);

    clockMs += 30_000;
    router.reportSuccess(primary);
    router.reportFailure(primary, "request-under-test");
    expect(planNames(router)).toEqual(["primary", "backup"]);
    router.reportFailure(primary, "request-under-test");
    expect(planNames(router)).toEqual(["backup", "primary"]);
  });

  it("a success between failures keeps the channel in service", async () => {
    await context.addChannel("flaky", { priority: 1 });
    await context.addChannel("steady");
    const router = await createRouter();
    const flaky = router.findChannel(1)!.id;
    router.reportFailure(flaky, "request-under-test");
    router.reportSuccess(flaky);
    router.reportFailure(flaky, "request-under-test");
    expect(planNames(router)).toEqual(["flaky", "steady"]);
  });

  it("rotates each channel's keys round-robin", async () => {
    await context.addChannel("rotating", { keys: ["key-1", "key-2", "key-3"] });
    await context.addChannel("single", { keys: ["only-key"], priority: -1 });
    const router = await createRouter();
    const keys = Array.from({ length: 4 }, () =>
      router.planAttempts("model-a", defaultToken, "default", 10).map((attempt) => attempt.upstreamKey),
    );
    expect(keys).toEqual([
      ["key-1", "only-key"],
      ["key-2", "only-key"],
      ["key-3", "only-key"],
      ["key-1", "only-key"],
    ]);
  });

  it("plans the one attempt on a given channel and key, cooling down or not, and none where it can no longer serve", async () => {
    const made = await context.addChannel("made-it", {
      keys: ["key-1", "key-2"],
      priority: -1,
      modelMapping: { "model-a": "upstream-a" },
    });
    const other = await context.addChannel("other", { groups: ["vip"] });
    const off = await context.addChannel("off", { enabled: false });
    const router = await createRouter();
    router.reportFailure(made.id, "request-under-test");
    router.reportFailure(made.id, "request-under-test");
    expect(router.planAttemptOn("model-a", defaultToken, "default", { channelId: made.id, keyIndex: 1 })).toEqual({
      channel: router.findChannel(made.id),
      group: "default",
      upstreamModel: "upstream-a",
      upstreamKey: "key-2",
      keyIndex: 1,
    });
    const plan = (channelId: number, keyIndex = 0, model = "model-a") =>
      router.planAttemptOn(model, defaultToken, "default", { channelId, keyIndex });
    expect(plan(made.id, 2)).toBeUndefined();
    expect(plan(made.id, 0, "model-b")).toBeUndefined();
    expect(plan(other.id)).toBeUndefined();
    expect(plan(off.id)).toBeUndefined();
    expect(plan(9_999)).toBeUndefined();
  });

  it("puts a conversation's channel and key first while that channel is healthy, the others behind it", async () => {
    const first = await context.addChannel("first", { priority: 10 });
    const second = await context.addChannel("second", { keys: ["second-0", "second-1", "second-2"] });
    await context.addChannel("third");
    const router = await createRouter(seededRandom(3));
    const preferred = { channelId: second.id, keyIndex: 2 };
    for (let request = 0; request < 5; request += 1) {
      const plan = router.planAttempts("model-a", defaultToken, "default", 3, preferred);
      // Even ahead of a higher priority: the conversation's cache lives on its channel.
      expect(plan.map((attempt) => attempt.channel.name)).toEqual(["second", "first", "third"]);
      expect(plan[0]!.upstreamKey).toBe("second-2");
    }
    // A key the channel no longer has: the channel still comes first, with its next key.
    expect(
      router.planAttempts("model-a", defaultToken, "default", 3, { channelId: second.id, keyIndex: 7 })[0]!.channel
        .name,
    ).toBe("second");
    // Cooling down: the conversation moves on.
    router.reportFailure(second.id, "request-1");
    router.reportFailure(second.id, "request-2");
    expect(planNames(router, "model-a", defaultToken, "default", 10)).toEqual(["first", "third", "second"]);
    expect(
      router.planAttempts("model-a", defaultToken, "default", 3, preferred).map((attempt) => attempt.channel.name),
    ).toEqual(["first", "third", "second"]);
    // A channel that does not serve the model (or is gone) changes nothing.
    expect(
      router
        .planAttempts("model-a", defaultToken, "default", 3, { channelId: first.id + 100, keyIndex: 0 })
        .map((attempt) => attempt.channel.name),
    ).toEqual(["first", "third", "second"]);
  });

  it("maps the model name per channel", async () => {
    await context.addChannel("renaming", { priority: 1, modelMapping: { "model-a": "upstream-a" } });
    await context.addChannel("plain");
    const router = await createRouter();
    expect(router.planAttempts("model-a", defaultToken, "default", 10).map((attempt) => attempt.upstreamModel)).toEqual(
      ["upstream-a", "model-a"],
    );
  });

  it("lists the models a token can reach, sorted", async () => {
    await context.addChannel("default", { groups: ["default"], models: ["zeta", "alpha"] });
    await context.addChannel("vip", { groups: ["vip"], models: ["beta", "alpha"] });
    await context.addChannel("other", { groups: ["other"], models: ["omega"] });
    await context.addChannel("disabled", { groups: ["default"], models: ["hidden"], enabled: false });
    const router = await createRouter();
    expect(router.listModels(defaultToken, "default")).toEqual(["alpha", "zeta"]);
    expect(router.listModels({ group: "vip", crossGroupRetry: false }, "default")).toEqual(["alpha", "beta"]);
    expect(router.listModels({ group: "auto", crossGroupRetry: false }, "default")).toEqual(["alpha", "beta", "zeta"]);
    expect(router.listModels(defaultToken, "nobody")).toEqual([]);
  });

  it("reloads from the store, finds disabled channels by id but never plans them", async () => {
    const disabled = await context.addChannel("disabled", {
      enabled: false,
      settings: { timeouts: { connect_ms: 7 } },
    });
    const router = await createRouter();
    expect(planNames(router)).toEqual([]);
    expect(router.findChannel(disabled.id)).toMatchObject({
      name: "disabled",
      enabled: false,
      keys: ["key-of-disabled"],
      timeouts: {
        connectMs: 7,
        headerMs: context.config.defaultTimeouts.headerMs,
        idleMs: context.config.defaultTimeouts.idleMs,
      },
    });
    await context.addChannel("added");
    expect(planNames(router)).toEqual([]);
    await router.reload();
    expect(planNames(router)).toEqual(["added"]);
    expect(router.findChannel(999)).toBeUndefined();
  });

  it("leaves out channels it cannot use: unknown type or keys from another secret", async () => {
    await context.addChannel("future type", { type: "carrier-pigeon" });
    const foreign = await context.addChannel("foreign keys");
    await context.database.db
      .updateTable("channels")
      .set({ keys_encrypted: "v1.AAAA.AAAA.AAAA" })
      .where("id", "=", foreign.id)
      .execute();
    await context.addChannel("usable");
    const router = await createRouter();
    expect(planNames(router)).toEqual(["usable"]);
  });
});

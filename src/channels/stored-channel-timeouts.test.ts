import { describe, expect, it } from "vitest";
import { longestTimerMs } from "../config/gateway-config.js";
import { readStoredChannelTimeouts, resolveChannelTimeouts } from "./stored-channel-timeouts.js";

describe("stored channel timeouts", () => {
  it("reads whole positive milliseconds up to the longest timer Node.js keeps", () => {
    expect(
      readStoredChannelTimeouts({ timeouts: { connect_ms: 1, header_ms: longestTimerMs, idle_ms: 30_000 } }),
    ).toEqual({ connect_ms: 1, header_ms: longestTimerMs, idle_ms: 30_000 });
  });

  // A row saved before the spec set a maximum: 2^32 ms would have made every timer of the channel fire after 1 ms.
  it("leaves a value no timer can hold to the gateway default, as it does any other value out of range", () => {
    const stored = readStoredChannelTimeouts({
      timeouts: { connect_ms: 4_294_967_296, header_ms: 0, idle_ms: 1.5 },
    });
    expect(stored).toEqual({});
    expect(resolveChannelTimeouts(stored, { connectMs: 5_000, headerMs: 120_000, idleMs: 300_000 })).toEqual({
      connectMs: 5_000,
      headerMs: 120_000,
      idleMs: 300_000,
    });
  });
});

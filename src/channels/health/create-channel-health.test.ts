import { describe, expect, it } from "vitest";
import { longestTimerMs } from "../../config/gateway-config.js";
import { probeIntervalMs } from "./create-channel-health.js";

describe("the channel health probe interval", () => {
  it("is the rules' seconds, and never more than a timer holds (rules saved before the spec bounded it)", () => {
    expect(probeIntervalMs(300)).toBe(300_000);
    expect(probeIntervalMs(2_147_483)).toBe(2_147_483_000);
    expect(probeIntervalMs(4_294_967_296)).toBe(longestTimerMs);
  });
});

import { describe, expect, it } from "vitest";
import { isIpAllowed } from "./is-ip-allowed.js";
import { isIpInAllowList } from "./is-ip-in-allow-list.js";
import { parseAllowList } from "./parse-allow-list.js";

describe("isIpAllowed", () => {
  it("lets everyone through an empty list", () => {
    const empty = parseAllowList("");
    expect(isIpAllowed(empty, "203.0.113.9")).toBe(true);
    expect(isIpAllowed(empty, "2001:db8::1")).toBe(true);
  });

  it("matches single IPv4 addresses exactly", () => {
    const list = parseAllowList("203.0.113.9");
    expect(isIpAllowed(list, "203.0.113.9")).toBe(true);
    expect(isIpAllowed(list, "203.0.113.10")).toBe(false);
  });

  it("matches IPv4 CIDR ranges at their edges", () => {
    const list = parseAllowList("10.0.0.0/8, 192.168.1.128/25");
    expect(isIpAllowed(list, "10.0.0.0")).toBe(true);
    expect(isIpAllowed(list, "10.255.255.255")).toBe(true);
    expect(isIpAllowed(list, "11.0.0.0")).toBe(false);
    expect(isIpAllowed(list, "192.168.1.128")).toBe(true);
    expect(isIpAllowed(list, "192.168.1.255")).toBe(true);
    expect(isIpAllowed(list, "192.168.1.127")).toBe(false);
  });

  it("matches IPv6 addresses and ranges in any notation", () => {
    const list = parseAllowList("2001:db8::/32\n::1");
    expect(isIpAllowed(list, "2001:db8:ffff::1")).toBe(true);
    expect(isIpAllowed(list, "2001:0db8:0000:0000:0000:0000:0000:0001")).toBe(true);
    expect(isIpAllowed(list, "2001:db9::1")).toBe(false);
    expect(isIpAllowed(list, "0:0:0:0:0:0:0:1")).toBe(true);
    expect(isIpAllowed(list, "::2")).toBe(false);
  });

  it("treats IPv4-mapped IPv6 and IPv4 as the same address on both sides", () => {
    expect(isIpAllowed(parseAllowList("1.2.3.4"), "::ffff:1.2.3.4")).toBe(true);
    expect(isIpAllowed(parseAllowList("10.0.0.0/8"), "::ffff:10.9.8.7")).toBe(true);
    expect(isIpAllowed(parseAllowList("::ffff:1.2.3.4"), "1.2.3.4")).toBe(true);
    expect(isIpAllowed(parseAllowList("::ffff:0:0/96"), "8.8.8.8")).toBe(true);
    expect(isIpAllowed(parseAllowList("::/0"), "8.8.8.8")).toBe(true);
  });

  it("keeps IPv4 and plain IPv6 apart", () => {
    expect(isIpAllowed(parseAllowList("0.0.0.0/0"), "2001:db8::1")).toBe(false);
    expect(isIpAllowed(parseAllowList("2001:db8::/32"), "1.2.3.4")).toBe(false);
  });

  it("ignores a zone id on the client address", () => {
    expect(isIpAllowed(parseAllowList("fe80::/10"), "fe80::1%eth0")).toBe(true);
  });

  it("refuses an unparseable address when restricted", () => {
    const list = parseAllowList("0.0.0.0/0");
    expect(isIpAllowed(list, "unknown")).toBe(false);
    expect(isIpAllowed(list, "")).toBe(false);
  });
});

describe("isIpInAllowList", () => {
  it("contains nothing when the list is empty", () => {
    expect(isIpInAllowList(parseAllowList(""), "1.2.3.4")).toBe(false);
  });
});

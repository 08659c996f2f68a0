import { describe, expect, it } from "vitest";
import { parseAllowList } from "./parse-allow-list.js";
import { resolveClientIp } from "./resolve-client-ip.js";

const proxies = parseAllowList("10.0.0.0/8, fd00::/8");

describe("resolveClientIp", () => {
  it("ignores X-Forwarded-For without trusted proxies (no spoofing)", () => {
    expect(resolveClientIp("203.0.113.9", "1.2.3.4", undefined)).toBe("203.0.113.9");
    expect(resolveClientIp("203.0.113.9", "1.2.3.4", parseAllowList(""))).toBe("203.0.113.9");
  });

  it("ignores X-Forwarded-For when the peer is not a trusted proxy", () => {
    expect(resolveClientIp("203.0.113.9", "10.0.0.1, 1.2.3.4", proxies)).toBe("203.0.113.9");
  });

  it("uses the socket address when a trusted proxy sends no header", () => {
    expect(resolveClientIp("10.0.0.5", undefined, proxies)).toBe("10.0.0.5");
    expect(resolveClientIp("10.0.0.5", "  ", proxies)).toBe("10.0.0.5");
  });

  it("takes the rightmost untrusted hop, so a client-written left part is ignored", () => {
    expect(resolveClientIp("10.0.0.5", "203.0.113.9", proxies)).toBe("203.0.113.9");
    expect(resolveClientIp("10.0.0.5", "6.6.6.6, 203.0.113.9", proxies)).toBe("203.0.113.9");
    expect(resolveClientIp("10.0.0.5", "6.6.6.6, 203.0.113.9, 10.1.1.1, 10.2.2.2", proxies)).toBe("203.0.113.9");
  });

  it("returns the leftmost hop when every hop is a trusted proxy", () => {
    expect(resolveClientIp("10.0.0.5", "10.0.0.7, 10.0.0.6", proxies)).toBe("10.0.0.7");
  });

  it("stops at junk and returns the last verified hop, never the junk", () => {
    expect(resolveClientIp("10.0.0.5", "not-an-ip", proxies)).toBe("10.0.0.5");
    expect(resolveClientIp("10.0.0.5", "203.0.113.9, evil, 10.0.0.6", proxies)).toBe("10.0.0.6");
    expect(resolveClientIp("10.0.0.5", "203.0.113.9,,10.0.0.6", proxies)).toBe("10.0.0.6");
  });

  it("normalises IPv4-mapped and IPv6 addresses", () => {
    expect(resolveClientIp("::ffff:203.0.113.9", undefined, undefined)).toBe("203.0.113.9");
    expect(resolveClientIp("::ffff:10.0.0.5", "::ffff:203.0.113.9", proxies)).toBe("203.0.113.9");
    expect(resolveClientIp("fd00::1", "2001:0db8:0000:0000:0000:0000:0000:0001", proxies)).toBe("2001:db8::1");
  });

  it("accepts ports and brackets some proxies add", () => {
    expect(resolveClientIp("10.0.0.5", "203.0.113.9:51234", proxies)).toBe("203.0.113.9");
    expect(resolveClientIp("10.0.0.5", "[2001:db8::1]:443", proxies)).toBe("2001:db8::1");
    expect(resolveClientIp("10.0.0.5", "[2001:db8::2]", proxies)).toBe("2001:db8::2");
  });

  it("returns an unparseable socket address unchanged", () => {
    expect(resolveClientIp("weird", "1.2.3.4", proxies)).toBe("weird");
  });
});

import { describe, expect, it } from "vitest";
import { InvalidAllowListError } from "../../errors/gateway-error.js";
import { parseAllowList } from "./parse-allow-list.js";

describe("parseAllowList", () => {
  it("splits on newlines and commas, trims and skips empty entries", () => {
    const list = parseAllowList(" 1.2.3.4 ,\n\n10.0.0.0/8\r\n, ,2001:db8::/32,");
    expect(list.entries.map((entry) => entry.text)).toEqual(["1.2.3.4", "10.0.0.0/8", "2001:db8::/32"]);
  });

  it("gives an empty list for empty or blank text", () => {
    expect(parseAllowList("").entries).toEqual([]);
    expect(parseAllowList(" \n , ").entries).toEqual([]);
  });

  it("parses single addresses as full-length prefixes", () => {
    const [ipv4, ipv6] = parseAllowList("192.168.1.10,::1").entries;
    expect(ipv4).toMatchObject({ version: 4, prefixLength: 32, bytes: [192, 168, 1, 10] });
    expect(ipv6).toMatchObject({ version: 6, prefixLength: 128 });
    expect(ipv6?.bytes).toEqual([...new Array(15).fill(0), 1]);
  });

  it("clears host bits of a CIDR instead of rejecting it", () => {
    const [entry] = parseAllowList("10.1.2.3/8").entries;
    expect(entry).toMatchObject({ version: 4, prefixLength: 8, bytes: [10, 0, 0, 0] });
  });

  it("folds IPv4-mapped IPv6 into IPv4", () => {
    const [address, range] = parseAllowList("::ffff:1.2.3.4, ::ffff:10.0.0.0/104").entries;
    expect(address).toMatchObject({ version: 4, prefixLength: 32, bytes: [1, 2, 3, 4] });
    expect(range).toMatchObject({ version: 4, prefixLength: 8, bytes: [10, 0, 0, 0] });
  });

  it("returns a deeply frozen value", () => {
    const list = parseAllowList("1.2.3.4");
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(list.entries)).toBe(true);
    expect(Object.isFrozen(list.entries[0])).toBe(true);
    expect(Object.isFrozen(list.entries[0]?.bytes)).toBe(true);
  });

  it.each([
    "localhost",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "010.0.0.1",
    "0x7f.0.0.1",
    "10",
    "1.2.3.4/33",
    "1.2.3.4/",
    "1.2.3.4/-1",
    "1.2.3.4/8/8",
    "1.2.3.4/ 8",
    "2001:db8::/129",
    "2001:db8:::1",
    "fe80::1%eth0",
    "1.2.3.4 5.6.7.8",
    "*",
  ])("rejects %j with a typed error naming the entry", (entry) => {
    expect(() => parseAllowList(`127.0.0.1\n${entry}`)).toThrow(InvalidAllowListError);
    try {
      parseAllowList(`127.0.0.1\n${entry}`);
    } catch (error) {
      const allowListError = error as InvalidAllowListError;
      expect(allowListError.entry).toBe(entry.trim());
      expect(allowListError.message).toContain(`"${entry.trim()}"`);
      expect(allowListError.status).toBe(400);
      expect(allowListError.param).toBe("allow_ips");
    }
  });
});

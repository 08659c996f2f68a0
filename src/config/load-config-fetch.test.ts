import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isIpInAllowList } from "../auth/ip/is-ip-in-allow-list.js";
import { ConfigurationError } from "../errors/gateway-error.js";
import { loadConfig } from "./load-config.js";

function loadWith(yaml: string) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gateway-config-")), "config.yaml");
  fs.writeFileSync(file, yaml);
  return loadConfig({
    DATABASE_URL: "sqlite::memory:",
    GATEWAY_SECRET: "test-secret-0123456789abcdef",
    GATEWAY_CONFIG: file,
  });
}

describe("GATEWAY_CONFIG fetch.allow_private", () => {
  it("is empty by default", () => {
    expect(loadWith("channels: []\n").fetchAllowPrivate.entries).toEqual([]);
  });

  it("reads CIDR ranges and single addresses", () => {
    const list = loadWith('fetch: { allow_private: ["127.0.0.1/32", "10.1.2.0/24", "fd12::1"] }\n').fetchAllowPrivate;
    expect(isIpInAllowList(list, "10.1.2.77")).toBe(true);
    expect(isIpInAllowList(list, "10.1.3.1")).toBe(false);
    expect(isIpInAllowList(list, "fd12::1")).toBe(true);
  });

  it("names a bad entry and an unknown key", () => {
    expect(() => loadWith('fetch: { allow_private: ["10.0.0.0/99"] }\n')).toThrow(ConfigurationError);
    expect(() => loadWith('fetch: { allow_private: ["10.0.0.0/99"] }\n')).toThrow(/fetch\.allow_private/);
    expect(() => loadWith("fetch: { allow_privat: [] }\n")).toThrow(ConfigurationError);
  });
});

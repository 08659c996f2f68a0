import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
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

describe("GATEWAY_CONFIG routing.affinity_ttl_seconds", () => {
  it("is 300 seconds by default, and takes the file's value (0 turns conversation affinity off)", () => {
    expect(loadWith("channels: []\n").routing).toEqual({ affinityTtlSeconds: 300 });
    expect(loadWith("routing: { affinity_ttl_seconds: 900 }\n").routing).toEqual({ affinityTtlSeconds: 900 });
    expect(loadWith("routing: { affinity_ttl_seconds: 0 }\n").routing).toEqual({ affinityTtlSeconds: 0 });
  });

  it("refuses a negative, fractional, oversized or misspelt setting, naming it", () => {
    for (const yaml of [
      "routing: { affinity_ttl_seconds: -1 }\n",
      "routing: { affinity_ttl_seconds: 1.5 }\n",
      "routing: { affinity_ttl_seconds: 100000 }\n",
      'routing: { affinity_ttl_seconds: "300" }\n',
    ]) {
      expect(() => loadWith(yaml), yaml).toThrow(ConfigurationError);
      expect(() => loadWith(yaml), yaml).toThrow(/affinity_ttl_seconds/);
    }
    expect(() => loadWith("routing: { affinity_ttl: 300 }\n")).toThrow(/affinity_ttl/);
  });
});

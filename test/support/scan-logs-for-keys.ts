import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";

// An API key body is 48 letters and digits, with or without `sk-`; nothing else the gateway logs has that shape.
const keyShape = /(?<![A-Za-z0-9])(?:sk-)?[A-Za-z0-9]{48}(?![A-Za-z0-9])/g;
// Upstream credentials of other known shapes, whoever's they are: Google-style `AIza…` (39 characters) and
// OpenAI project or Anthropic-style keys (`sk-proj-…`, `sk-ant-…`).
const upstreamKeyShape = /AIza[A-Za-z0-9_-]{35}|sk-(?:proj|ant)-[A-Za-z0-9_-]{20,}/;

/** Files the test gateways write beside their logs: one line per response body that carried a key (no key in it). */
export const responseLeakFilePrefix = "response-key-leaks-";

/** Channel keys of every configuration file a test gateway wrote into the folder (start-test-gateway.ts). */
export function readChannelKeys(folder: string): string[] {
  const keys = new Set<string>();
  for (const name of fs.readdirSync(folder).filter((file) => file.startsWith("config-") && file.endsWith(".yaml"))) {
    try {
      const config = YAML.parse(fs.readFileSync(path.join(folder, name), "utf8")) as {
        channels?: Array<{ key?: unknown; keys?: unknown }>;
      };
      for (const channel of config?.channels ?? []) {
        for (const key of [channel.key, ...(Array.isArray(channel.keys) ? channel.keys : [])]) {
          // Short made-up keys ("k") would match ordinary words; real ones are long.
          if (typeof key === "string" && key.length >= 10) keys.add(key);
        }
      }
    } catch {
      // A half-written file of a run in progress: its keys are in another run's scan.
    }
  }
  return [...keys];
}

/**
 * Lines (file:line) in the folder's log files that hold something shaped like a full API key (`sk-…` or the bare
 * 48 characters), an upstream key of a known shape, or a channel key of the tests' configurations, plus every response-body finding the test gateways
 * recorded (start-test-gateway.ts taps every answer except the two key endpoints).
 */
export function scanLogsForKeys(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  const channelKeys = readChannelKeys(folder);
  const findings: string[] = [];
  for (const name of fs.readdirSync(folder)) {
    if (name.startsWith(responseLeakFilePrefix)) {
      for (const line of fs.readFileSync(path.join(folder, name), "utf8").split("\n").filter(Boolean))
        findings.push(`${name}: ${line}`);
      continue;
    }
    if (!name.endsWith(".log")) continue;
    const lines = fs.readFileSync(path.join(folder, name), "utf8").split("\n");
    lines.forEach((line, index) => {
      if (keyShape.test(line) || upstreamKeyShape.test(line) || channelKeys.some((key) => line.includes(key)))
        findings.push(`${name}:${index + 1}`);
      keyShape.lastIndex = 0;
    });
  }
  return findings;
}

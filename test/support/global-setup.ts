import fs from "node:fs";
import { scanLogsForKeys } from "./scan-logs-for-keys.js";
import { testLogFolder } from "./test-log-folder.js";

// Runs once around the whole vitest run: a fresh log folder before, and after, the check that no full key reached
// any log line written during the suite.
export function setup(): () => void {
  fs.rmSync(testLogFolder, { recursive: true, force: true });
  fs.mkdirSync(testLogFolder, { recursive: true });
  return () => {
    const findings = scanLogsForKeys(testLogFolder);
    const lineCount = fs
      .readdirSync(testLogFolder)
      .filter((file) => file.endsWith(".log"))
      .reduce((sum, file) => sum + fs.readFileSync(`${testLogFolder}/${file}`, "utf8").split("\n").length, 0);
    if (findings.length > 0)
      throw new Error(`Keys found in log lines or response bodies: ${findings.slice(0, 50).join(", ")}`);
    console.log(
      `secrets scan: ${lineCount} log lines written during the suite and every response body: no full API key (either form) and no channel key`,
    );
  };
}

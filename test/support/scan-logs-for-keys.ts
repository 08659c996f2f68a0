import fs from "node:fs";
import path from "node:path";

// An API key body is 48 letters and digits; nothing else the gateway logs has that shape.
const keyShape = /(?<![A-Za-z0-9])(?:sk-)?[A-Za-z0-9]{48}(?![A-Za-z0-9])/g;

/** Lines (file:line) in the folder's log files that hold something shaped like a full API key. */
export function scanLogsForKeys(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  const findings: string[] = [];
  for (const name of fs.readdirSync(folder).filter((file) => file.endsWith(".log"))) {
    const lines = fs.readFileSync(path.join(folder, name), "utf8").split("\n");
    lines.forEach((line, index) => {
      if (keyShape.test(line)) findings.push(`${name}:${index + 1}`);
      keyShape.lastIndex = 0;
    });
  }
  return findings;
}

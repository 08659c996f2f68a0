import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Writes docs/BENCHMARKS.md and formats it as `npm run lint` checks it (biome), so a fresh report never fails the
 * test command's format step: the generated tables and emphasis are not written in biome's style.
 */
export function saveBenchmarksMarkdown(projectRoot: string, markdown: string): void {
  const file = path.join(projectRoot, "docs/BENCHMARKS.md");
  fs.writeFileSync(file, markdown);
  execFileSync(path.join(projectRoot, "node_modules/.bin/biome"), ["format", "--write", file], {
    cwd: projectRoot,
    stdio: "ignore",
  });
}

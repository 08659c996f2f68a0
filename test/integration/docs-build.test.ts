import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const projectRoot = path.resolve(import.meta.dirname, "..", "..");
const outputFolder = path.join(projectRoot, "docs", "reference");

// `npm run docs` builds all four references (seconds when the machine is quiet, a minute when it is busy), so the test runs the real script.
describe("npm run docs", () => {
  it("writes one self-contained HTML reference per API and an index", async () => {
    await promisify(execFile)(
      process.execPath,
      [
        path.join(projectRoot, "node_modules", "tsx", "dist", "cli.mjs"),
        path.join(projectRoot, "scripts", "build-docs.ts"),
      ],
      {
        cwd: projectRoot,
        timeout: 110_000,
      },
    );
    const summaries = {
      management: "List your tokens",
      openai: "Create a chat completion",
      native: "Generate content",
      anthropic: "Create a message",
    };
    for (const [api, summary] of Object.entries(summaries)) {
      const html = fs.readFileSync(path.join(outputFolder, `${api}.html`), "utf8");
      expect(html).toContain(summary);
      // Offline: no script is fetched from elsewhere.
      expect(html).not.toMatch(/<script[^>]+src="https?:/);
    }
    const index = fs.readFileSync(path.join(outputFolder, "index.html"), "utf8");
    for (const api of Object.keys(summaries)) expect(index).toContain(`href="${api}.html"`);
  }, 120_000);
});

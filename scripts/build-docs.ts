import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

// `npm run docs`: one self-contained HTML reference per API (Redoc inlined, so it renders offline) and an index.
const execFileAsync = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, "..");
const outputFolder = path.join(projectRoot, "docs", "reference");
const apis = [
  { name: "management", title: "Management API (/api)" },
  { name: "openai", title: "OpenAI-style API (/v1)" },
  { name: "native", title: "Native API (/v1beta)" },
  { name: "anthropic", title: "Anthropic Messages API (/v1/messages)" },
];

await mkdir(outputFolder, { recursive: true });
for (const api of apis) {
  await execFileAsync(
    path.join(projectRoot, "node_modules", ".bin", "redocly"),
    [
      "build-docs",
      path.join(projectRoot, "generated", "openapi", `${api.name}.json`),
      "--output",
      path.join(outputFolder, `${api.name}.html`),
      "--title",
      api.title,
      "--inlineBundle",
    ],
    { cwd: projectRoot },
  );
  console.log(`wrote docs/reference/${api.name}.html`);
}
const links = apis.map((api) => `<li><a href="${api.name}.html">${api.title}</a></li>`).join("\n      ");
await writeFile(
  path.join(outputFolder, "index.html"),
  `<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8"><title>AI API Gateway reference</title></head>\n  <body>\n    <h1>AI API Gateway reference</h1>\n    <ul>\n      ${links}\n    </ul>\n  </body>\n</html>\n`,
);
console.log("wrote docs/reference/index.html");

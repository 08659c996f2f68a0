import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { measureConsoleFirstLoad } from "./measure-console-first-load.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "console-first-load-"));
const write = (name: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
  fs.writeFileSync(path.join(folder, name), content);
};
const gzipped = (name: string) => zlib.gzipSync(fs.readFileSync(path.join(folder, name)), { level: 9 }).length;

describe("the console's first load", () => {
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it("counts index.html, what it names and what those import statically, and reports other hosts", () => {
    write(
      "index.html",
      `<!doctype html><html><head>
        <script type="module" crossorigin src="/assets/index.js"></script>
        <link rel="modulepreload" href="/assets/vendor.js">
        <link rel="stylesheet" href="/assets/index.css">
        <link rel="canonical" href="https://example.org/">
        <script src="https://cdn.example.org/analytics.js"></script>
      </head><body></body></html>`,
    );
    write(
      "assets/index.js",
      `import{a as b}from"./vendor.js";import"./side.js";const l=()=>import("./later.js");b(l);`,
    );
    write("assets/vendor.js", `export const a=(x)=>x;`.repeat(50));
    write("assets/side.js", `import"https://esm.example.net/module.js";`);
    write("assets/later.js", `export default 1;`);
    write("assets/index.css", `@font-face{src:url(./font.woff2)}body{background:url("data:image/png;base64,AA")}`);
    write("assets/font.woff2", "font bytes");

    const firstLoad = measureConsoleFirstLoad(folder);
    expect(firstLoad.files.map((file) => file.path).sort()).toEqual([
      "/assets/font.woff2",
      "/assets/index.css",
      "/assets/index.js",
      "/assets/side.js",
      "/assets/vendor.js",
      "/index.html",
    ]);
    expect(firstLoad.foreignUrls).toEqual([
      "https://esm.example.net/module.js",
      "https://cdn.example.org/analytics.js",
    ]);
    const vendor = firstLoad.files.find((file) => file.path === "/assets/vendor.js")!;
    expect(vendor).toEqual({ path: "/assets/vendor.js", bytes: 22 * 50, gzipBytes: gzipped("assets/vendor.js") });
    expect(vendor.gzipBytes).toBeLessThan(vendor.bytes);
    expect(firstLoad.gzipBytes).toBe(firstLoad.files.reduce((sum, file) => sum + file.gzipBytes, 0));
  });
});

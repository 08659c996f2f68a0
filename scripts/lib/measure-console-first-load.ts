import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export interface FirstLoadFile {
  /** Path as the page asks for it (`/assets/index-….js`). */
  path: string;
  bytes: number;
  /** Size after `gzip -9`, what a compressing server or proxy sends at most. */
  gzipBytes: number;
}

export interface FirstLoad {
  files: FirstLoadFile[];
  gzipBytes: number;
  /** Addresses on another host that the first load would fetch (the console must have none). */
  foreignUrls: string[];
}

/** The first load's ceiling, gzipped: 250 KB (of 1,000 bytes). */
export const consoleFirstLoadBudgetBytes = 250_000;

const foreign = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i;

/** The scripts, style sheets and preloads index.html names. */
function findHtmlReferences(html: string): string[] {
  const references: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    const source = /\b(?:src|href)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (source === undefined) continue;
    // A link is loaded when it is a style sheet, a preload or an icon; others (canonical, …) are not fetched.
    if (/^<link/i.test(tag) && !/\brel\s*=\s*["'][^"']*(stylesheet|preload|icon)/i.test(tag)) continue;
    references.push(source);
  }
  return references;
}

/** Static imports of a built module (`import{…}from"./x.js"`); dynamic `import("…")` loads later, not first. */
function findStaticImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+)["']/g)].map((match) => match[1]!);
}

/** `url(…)` and `@import` of a style sheet. */
function findStyleReferences(css: string): string[] {
  return [
    ...[...css.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((match) => match[1]!),
    ...[...css.matchAll(/@import\s+["']([^"']+)["']/g)].map((match) => match[1]!),
  ].filter((reference) => !reference.startsWith("data:"));
}

/**
 * What a browser fetches to show the built console the first time: index.html, what it names, and what those
 * modules import statically, each measured raw and gzipped at level 9 (as `gzip -9`). Fonts and images a style
 * sheet names count too; chunks loaded by a dynamic import do not.
 */
export function measureConsoleFirstLoad(distFolder: string): FirstLoad {
  const files = new Map<string, FirstLoadFile>();
  const foreignUrls: string[] = [];
  const measure = (requestPath: string, content: Buffer) =>
    files.set(requestPath, {
      path: requestPath,
      bytes: content.length,
      gzipBytes: zlib.gzipSync(content, { level: 9 }).length,
    });
  const visit = (reference: string, from: string) => {
    if (foreign.test(reference)) {
      foreignUrls.push(reference);
      return;
    }
    const requestPath = path.posix.resolve(path.posix.dirname(from), reference.split(/[?#]/)[0]!);
    if (files.has(requestPath)) return;
    const content = fs.readFileSync(path.join(distFolder, requestPath));
    measure(requestPath, content);
    const text = content.toString("utf8");
    if (requestPath.endsWith(".js")) for (const next of findStaticImports(text)) visit(next, requestPath);
    if (requestPath.endsWith(".css")) for (const next of findStyleReferences(text)) visit(next, requestPath);
  };
  const html = fs.readFileSync(path.join(distFolder, "index.html"));
  measure("/index.html", html);
  for (const reference of findHtmlReferences(html.toString("utf8"))) visit(reference, "/index.html");
  const measured = [...files.values()];
  return { files: measured, gzipBytes: measured.reduce((sum, file) => sum + file.gzipBytes, 0), foreignUrls };
}

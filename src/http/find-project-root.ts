import fs from "node:fs";
import path from "node:path";

let cachedRoot: string | undefined;

/** The folder holding generated/, whether we run from src/ (tsx) or from dist/src/ (compiled). */
export function findProjectRoot(): string {
  if (cachedRoot) return cachedRoot;
  let folder = import.meta.dirname;
  while (!fs.existsSync(path.join(folder, "generated", "openapi"))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error("Cannot find generated/openapi: run `npm run generate`.");
    folder = parent;
  }
  cachedRoot = folder;
  return folder;
}

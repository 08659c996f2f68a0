import fs from "node:fs";
import path from "node:path";
import type { ApiGeneration } from "./api-generation.js";
import { findProjectRoot } from "./find-project-root.js";

/** A fresh parsed copy of a bundled spec (the validator keeps and preprocesses what it is given). */
export function loadBundledSpec(generation: ApiGeneration): Record<string, unknown> {
  const file = path.join(findProjectRoot(), "generated", "openapi", `${generation}.json`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
}

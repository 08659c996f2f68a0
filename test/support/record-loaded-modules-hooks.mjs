// Module resolution hooks of record-loaded-modules.mjs (they run on the loader thread).
import fs from "node:fs";

let file;

export async function initialize(data) {
  file = data?.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (file) fs.appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}

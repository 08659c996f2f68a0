import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateArtifacts } from "./lib/generate-artifacts.js";

// Fails when generated/ is not what the specs produce today: the specs are the source of truth.
const projectRoot = path.resolve(import.meta.dirname, "..");
const temporaryRoot = await mkdtemp(path.join(os.tmpdir(), "gateway-drift-"));
try {
  const written = await generateArtifacts(temporaryRoot);
  const drifted: string[] = [];
  for (const freshFile of written) {
    const relative = path.relative(temporaryRoot, freshFile);
    const committedFile = path.join(projectRoot, "generated", relative);
    const committed = await readFile(committedFile, "utf8").catch(() => undefined);
    if (committed !== (await readFile(freshFile, "utf8"))) drifted.push(`generated/${relative}`);
  }
  if (drifted.length > 0) {
    console.error(
      `generated/ has drifted from openapi/ (run \`npm run generate\` and commit):\n  ${drifted.join("\n  ")}`,
    );
    process.exitCode = 1;
  } else {
    console.log(`generated/ matches openapi/ (${written.length} files)`);
  }
} finally {
  await rm(temporaryRoot, { recursive: true, force: true });
}

/**
 * Regenerates __fixtures__/ from the fake itself (byte-stable):
 *   npx tsx mocks/upstreams/openai/record-fixtures.ts
 * Translator tests replay these files as if they came from OpenAI; fixtures.test.ts fails when they drift.
 */
import { writeFile } from "node:fs/promises";
import { createFixtureRecordings } from "./create-fixture-recordings.js";

const fixtureDirectory = new URL("./__fixtures__/", import.meta.url);

for (const [file, content] of await createFixtureRecordings()) {
  await writeFile(new URL(file, fixtureDirectory), content);
  console.log(`wrote ${file}`);
}

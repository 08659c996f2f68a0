import path from "node:path";
import { apiNames, generateArtifacts, type ApiName } from "./lib/generate-artifacts.js";

const outputRoot = path.resolve(import.meta.dirname, "..", "generated");
// `npm run generate -- openai` regenerates one API only.
const requested = process.argv
  .slice(2)
  .filter((name): name is ApiName => (apiNames as readonly string[]).includes(name));
const written = await generateArtifacts(outputRoot, requested.length > 0 ? requested : apiNames);
for (const file of written) console.log(`wrote ${path.relative(process.cwd(), file)}`);

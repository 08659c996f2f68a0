import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody } from "./bench-plan.js";
import { profileGateway } from "./profile-gateway.js";
import { startFakeUpstream } from "./start-bench-servers.js";

// Profiles the compiled gateway under the 0 ms / c=64 load and prints where its time goes (`npx tsx bench/profile-probe.ts`).
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const upstream = await startFakeUpstream(projectRoot);
const profile = await profileGateway(projectRoot, upstream.url, { entry: ["dist/src/main.js"] }, { body: chatBody, warmupSeconds: 2, durationSeconds: 6 });
console.log(`${Math.round(profile.load.requestsPerSecond)} req/s under the profiler`);
console.log(JSON.stringify(profile.summary, null, 1).slice(0, 6000));
process.exit(0);

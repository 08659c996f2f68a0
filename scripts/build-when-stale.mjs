// `npm start` and `npm run build`: builds the server (tsc → dist/) and the web console (Vite → console/dist/) only when
// a source is newer than the last build, so a restart with nothing changed starts at once. Plain Node, no
// dependencies, because it runs before anything is compiled. `--always` builds both whatever the stamps say.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const projectRoot = path.resolve(import.meta.dirname, "..");
const always = process.argv.includes("--always");
const skipped = new Set(["node_modules", "dist", ".git"]);

/** What each build reads, the stamp it leaves, and the npm script that makes it. */
const builds = [
  {
    name: "server",
    inputs: ["src", "generated", "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"],
    stamp: "dist/.build-stamp",
    script: "build:server",
  },
  {
    name: "web console",
    inputs: ["console", "generated", "package.json", "package-lock.json"],
    stamp: "console/dist/.build-stamp",
    script: "build:console",
  },
];

/**
 * Newest modification time under a file or folder (0 when it does not exist). A folder's own time counts (a deleted
 * file changes it) except at the top of an input, which also holds the build's output folder (console/dist).
 */
function newestChange(target, isInputRoot = true) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = isInputRoot ? 0 : stat.mtimeMs;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    newest = Math.max(newest, newestChange(path.join(target, entry.name), false));
  }
  return newest;
}

function stampTime(stamp) {
  try {
    return fs.statSync(stamp).mtimeMs;
  } catch {
    return -1;
  }
}

for (const build of builds) {
  const stamp = path.join(projectRoot, build.stamp);
  const newestSource = Math.max(...build.inputs.map((input) => newestChange(path.join(projectRoot, input))));
  if (!always && newestSource <= stampTime(stamp)) continue;
  // The stamp takes the time the build started: a file saved while it ran is newer, so the next start builds again.
  const startedAt = new Date();
  console.error(`building the ${build.name} (npm run ${build.script})…`);
  const result = spawnSync("npm", ["run", build.script, "--silent"], { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, "");
  fs.utimesSync(stamp, startedAt, startedAt);
}

import path from "node:path";
import { consoleFirstLoadBudgetBytes, measureConsoleFirstLoad } from "./lib/measure-console-first-load.js";

// `npm run size:console`: builds the console, then prints what its first load weighs gzipped (the README's figure)
// and fails when it passes the budget or would fetch anything from another host.
const distFolder = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "console", "dist"));
const firstLoad = measureConsoleFirstLoad(distFolder);
const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
for (const file of firstLoad.files)
  console.log(
    `${file.path.padEnd(40)} ${kilobytes(file.bytes).padStart(10)} ${kilobytes(file.gzipBytes).padStart(10)} gzip`,
  );
console.log(
  `first load: ${kilobytes(firstLoad.gzipBytes)} gzipped (gzip -9), budget ${kilobytes(consoleFirstLoadBudgetBytes)}`,
);
if (firstLoad.foreignUrls.length > 0) console.error(`loads from another host: ${firstLoad.foreignUrls.join(", ")}`);
if (firstLoad.gzipBytes > consoleFirstLoadBudgetBytes || firstLoad.foreignUrls.length > 0) process.exitCode = 1;

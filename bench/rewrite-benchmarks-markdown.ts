import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResults } from "./bench-results.js";
import { writeBenchmarksMarkdown } from "./write-benchmarks-markdown.js";
import { saveBenchmarksMarkdown } from "./save-benchmarks-markdown.js";

// `tsx bench/rewrite-benchmarks-markdown.ts <bench-results.json>`: docs/BENCHMARKS.md again from a run's saved
// results (run-bench.ts prints where), after bench/profile-findings.md or the report's layout changed.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsFile = process.argv[2];
if (!resultsFile) throw new Error("usage: tsx bench/rewrite-benchmarks-markdown.ts <bench-results.json>");
const results = JSON.parse(fs.readFileSync(resultsFile, "utf8")) as BenchResults;
const findings = fs.readFileSync(path.join(projectRoot, "bench/profile-findings.md"), "utf8");
saveBenchmarksMarkdown(projectRoot, writeBenchmarksMarkdown(results, findings));
console.log(`rewrote docs/BENCHMARKS.md from ${resultsFile}`);

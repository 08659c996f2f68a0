import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { listPendingOperations } from "../src/http/pending-operations.js";

// `npm test`: every check CI runs, in order, ending with one plain "N passed, N failed" line.
const projectRoot = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(projectRoot, "node_modules", ".bin", name);

function run(command: string, args: string[], environment: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: projectRoot, stdio: "inherit", env: { ...process.env, ...environment } });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

interface StepResult {
  name: string;
  passed: number;
  failed: number;
}

const results: StepResult[] = [];
async function step(name: string, command: string, args: string[]): Promise<void> {
  console.log(`\n=== ${name}`);
  const code = await run(command, args);
  results.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });
}

await step("spec lint (redocly)", bin("redocly"), ["lint", "--config", "openapi/redocly.yaml"]);
await step("generated/ drift check", bin("tsx"), ["scripts/check-drift.ts"]);
await step("format and lint (biome)", bin("biome"), ["check", "."]);
await step("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]);
await step("typecheck the web console", bin("tsc"), ["--noEmit", "-p", "console/tsconfig.json"]);
await step("layers: no import cycle, no import upward (dependency-cruiser)", bin("depcruise"), [
  "src",
  "--config",
  ".dependency-cruiser.cjs",
  "--ignore-known",
]);

console.log("\n=== unit and integration tests (vitest)");
const reportFolder = await mkdtemp(path.join(os.tmpdir(), "gateway-tests-"));
const vitestReport = path.join(reportFolder, "vitest.json");
await run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`]);
try {
  const report = JSON.parse(await readFile(vitestReport, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numTotalTestSuites: number;
    success: boolean;
  };
  results.push({
    name: "vitest",
    passed: report.numPassedTests,
    failed: report.numFailedTests + (report.success || report.numFailedTests > 0 ? 0 : 1),
  });
} catch {
  results.push({ name: "vitest (no report: the run crashed)", passed: 0, failed: 1 });
}

console.log("\n=== contract tests (Dredd + Prism proxy)");
const contractReport = path.join(reportFolder, "contract.json");
await run(bin("tsx"), ["contract-tests/run-contract-tests.ts"], { CONTRACT_REPORT: contractReport });
try {
  const report = JSON.parse(await readFile(contractReport, "utf8")) as { passed: number; failed: number };
  results.push({ name: "contract", passed: report.passed, failed: report.failed });
} catch {
  results.push({ name: "contract (no report: the run crashed)", passed: 0, failed: 1 });
}

const pending = listPendingOperations();
console.log(`\nOperations still answering 501 (${pending.length}): ${pending.length ? pending.join(", ") : "none"}`);
console.log("\nSummary:");
for (const result of results)
  console.log(
    `  ${result.failed === 0 ? "ok  " : "FAIL"} ${result.name}: ${result.passed} passed, ${result.failed} failed`,
  );
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;

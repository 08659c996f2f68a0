import fs from "node:fs";
import http from "node:http";
import type { ApiGeneration } from "../src/http/api-generation.js";
import { listPendingOperations } from "../src/http/pending-operations.js";
import { addMissingParameterExamples } from "./add-missing-parameter-examples.js";
import { childProcessRegistry } from "./child-process-registry.js";
import { collectExampleModels } from "./collect-example-models.js";
import type { ContractContext } from "./contract-context.js";
import { createContractOutcome, type ContractOutcome } from "./contract-outcome.js";
import { convertOpenapi31To30 } from "./convert-openapi-31-to-30.js";
import { createDreddHooks } from "./create-dredd-hooks.js";
import { apiGenerations, readBundledSpecText, readSpecOperations, type SpecOperation } from "./read-spec-operations.js";
import { runDredd } from "./run-dredd.js";
import { runPrismProxyChecks } from "./run-prism-proxy-checks.js";
import { seedContractData } from "./seed-contract-data.js";
import { startContractGateway, type ContractGateway } from "./start-contract-gateway.js";

// `npm run test:contract`: Dredd and `prism proxy --errors` against the real gateway. Report: CONTRACT_REPORT.
const startedAt = Date.now();
// A guard against a hung run, not a speed check: a loaded 2-core machine takes several times the quiet figure.
const timeLimitMs = 600_000;
// Dredd sends through Node's global agent, which keeps sockets alive by default: a request that picks an idle
// socket just as the gateway's keep-alive timeout closes it fails with "socket hang up" (seen between suites).
http.globalAgent = new http.Agent({ keepAlive: false });
// Required parameters the specs give no example for; Dredd cannot expand a path without one.
const parameterFallbacks: Record<string, unknown> = { model: "gmx-3.8-flash-tts" };

function printSummary(outcome: ContractOutcome, pending: string[]): void {
  console.log(`\nPending operations (answer 501, not checked): ${pending.length}`);
  for (const operation of pending) console.log(`  - ${operation}`);
  const reasons = new Map<string, number>();
  for (const skipped of outcome.skipped) reasons.set(skipped.reason, (reasons.get(skipped.reason) ?? 0) + 1);
  console.log(`\nSkipped checks: ${outcome.skipped.length}`);
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(count).padStart(4)} × ${reason}`);
  if (outcome.failed.length > 0) {
    console.log(`\nFailures: ${outcome.failed.length}`);
    for (const failure of outcome.failed)
      console.log(`  ✗ ${failure.name}\n      ${failure.reason.trim().replaceAll("\n", "\n      ")}`);
  }
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  console.log(
    `\nContract tests: ${outcome.passed.length} passed, ${outcome.failed.length} failed, ${outcome.skipped.length} skipped (${seconds} s)`,
  );
}

function writeReport(outcome: ContractOutcome): void {
  const file = process.env.CONTRACT_REPORT;
  if (!file) return;
  const report = {
    passed: outcome.passed.length,
    failed: outcome.failed.length,
    skipped: outcome.skipped.map((skipped) => `${skipped.name}: ${skipped.reason}`),
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

// Set while the gateway child runs, so a timeout or Ctrl-C still stops it.
let activeGateway: ContractGateway | undefined;

function abort(message: string): void {
  console.error(message);
  writeReport({ passed: [], failed: [{ name: "harness", reason: message }], skipped: [] });
  childProcessRegistry.stopAll();
  setTimeout(() => process.exit(1), 8_000).unref();
  void (activeGateway?.close() ?? Promise.resolve()).finally(() => process.exit(1));
}

async function main(): Promise<number> {
  const pending = listPendingOperations();
  const pendingSet = new Set(pending);
  const specs = new Map<ApiGeneration, Record<string, unknown>>();
  const operations: SpecOperation[] = [];
  for (const generation of apiGenerations) {
    const spec = addMissingParameterExamples(JSON.parse(readBundledSpecText(generation)), parameterFallbacks);
    specs.set(generation, spec);
    operations.push(...readSpecOperations(generation, spec));
  }
  const outcome = createContractOutcome();
  let gateway: ContractGateway | undefined;
  try {
    const channelModels = collectExampleModels(operations);
    gateway = await startContractGateway(channelModels);
    activeGateway = gateway;
    const context: ContractContext = {
      gatewayUrl: gateway.url,
      seeded: await seedContractData(gateway.url, gateway.adminToken),
      managementBodyLimitBytes: gateway.managementBodyLimitBytes,
      jsonBodyLimitBytes: gateway.jsonBodyLimitBytes,
      upstreamHeaderTimeoutMs: gateway.upstreamHeaderTimeoutMs,
      setUpstreamFault: gateway.setUpstreamFault,
      servedModels: new Set([...channelModels.openai, ...channelModels.native, ...channelModels.anthropic]),
    };
    console.log(`Gateway under test: ${gateway.url} (log: ${gateway.logFile})`);
    const registerHooks = createDreddHooks({ context, operations, pending: pendingSet, outcome });
    for (const generation of apiGenerations) {
      console.log(`\nDredd: ${generation}`);
      await runDredd({
        generation,
        apiDescription: JSON.stringify(convertOpenapi31To30(specs.get(generation)!)),
        endpoint: gateway.url,
        registerHooks,
        outcome,
      });
    }
    console.log("\nPrism proxy: all APIs");
    await runPrismProxyChecks({ generations: apiGenerations, operations, pending: pendingSet, context, outcome });
  } catch (error) {
    outcome.failed.push({ name: "harness", reason: (error as Error).stack ?? String(error) });
  } finally {
    if (gateway && outcome.failed.length > 0) {
      const logLines = fs.existsSync(gateway.logFile)
        ? fs.readFileSync(gateway.logFile, "utf8").trim().split("\n")
        : [];
      console.log(`\nLast gateway log lines:\n${logLines.slice(-15).join("\n")}`);
    }
    await gateway?.close();
    activeGateway = undefined;
  }
  printSummary(outcome, pending);
  writeReport(outcome);
  return outcome.failed.length > 0 ? 1 : 0;
}

setTimeout(() => abort(`Contract tests exceeded ${timeLimitMs / 1000} s; giving up.`), timeLimitMs).unref();
process.once("SIGINT", () => abort("Interrupted."));
process.once("SIGTERM", () => abort("Terminated."));
process.exit(await main());

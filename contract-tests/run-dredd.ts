import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import type { ApiGeneration } from "../src/http/api-generation.js";
import type { ContractOutcome } from "./contract-outcome.js";
import type { DreddHooks } from "./create-dredd-hooks.js";

interface DreddTest {
  title: string;
  message: string;
}

interface DreddInstance {
  run(
    callback: (
      error: Error | null,
      stats: { tests: number; failures: number; errors: number; passes: number; skipped: number },
    ) => void,
  ): void;
}

const require = createRequire(import.meta.url);
const Dredd = require("dredd") as new (configuration: Record<string, unknown>) => DreddInstance;
const bridgeFile = path.join(import.meta.dirname, "dredd-hooks-bridge.cjs");
const registrationKey = Symbol.for("contract-tests.register-dredd-hooks");

/**
 * Dredd 14 over one API description held in memory, against `endpoint`, with hooks registered from TypeScript.
 * Passes and failures come from Dredd's own events; skips are recorded by the hooks, with their reasons.
 */
export async function runDredd(options: {
  generation: ApiGeneration;
  apiDescription: string;
  endpoint: string;
  registerHooks: (hooks: DreddHooks) => void;
  outcome: ContractOutcome;
}): Promise<void> {
  const emitter = new EventEmitter();
  const label = (test: DreddTest) => `dredd ${options.generation}: ${test.title}`;
  emitter.on("test pass", (test: DreddTest, done?: () => void) => {
    options.outcome.passed.push(label(test));
    done?.();
  });
  emitter.on("test fail", (test: DreddTest, done?: () => void) => {
    options.outcome.failed.push({ name: label(test), reason: test.message });
    done?.();
  });
  emitter.on("test error", (error: Error, test: DreddTest, done?: () => void) => {
    options.outcome.failed.push({ name: label(test), reason: `error: ${error.message}` });
    done?.();
  });
  (globalThis as Record<symbol, unknown>)[registrationKey] = options.registerHooks;
  try {
    const dredd = new Dredd({
      endpoint: options.endpoint,
      path: [],
      apiDescriptions: [{ location: `${options.generation}.openapi-3.0.json`, content: options.apiDescription }],
      hookfiles: [bridgeFile],
      // Dredd's parser warns about every 3.x keyword it ignores; those warnings say nothing about the gateway.
      loglevel: "error",
      reporter: ["dot"],
      color: false,
      emitter,
    });
    await new Promise<void>((resolve, reject) => {
      dredd.run((error) =>
        error ? reject(new Error(`Dredd (${options.generation}) could not run: ${error.message}`)) : resolve(),
      );
    });
  } finally {
    delete (globalThis as Record<symbol, unknown>)[registrationKey];
  }
}

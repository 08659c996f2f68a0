import path from "node:path";
import type { ApiGeneration } from "../src/http/api-generation.js";
import type { ContractContext } from "./contract-context.js";
import type { ContractOutcome } from "./contract-outcome.js";
import { findFreePorts } from "./find-free-ports.js";
import { callVariants, prepareOperationCall, type CallVariant, type PreparedCall } from "./prepare-operation-call.js";
import { projectRoot, type SpecOperation } from "./read-spec-operations.js";
import { startPrismProxy } from "./start-prism-proxy.js";

interface PrismViolation {
  location: string[];
  message: string;
}

// Calls Prism would refuse itself under --errors (it never forwards a request that breaks the spec), so they go
// through a proxy without --errors and only the response's violations count.
const invalidRequestVariants = new Set<CallVariant>(["400", "401", "413", "415"]);

async function send(
  baseUrl: string,
  call: PreparedCall,
): Promise<{ status: number; contentType: string; violations: string | null; text: string }> {
  const response = await fetch(`${baseUrl}${call.path}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    signal: AbortSignal.timeout(30_000),
  });
  // The answer may be a stream (SSE) or binary audio; Prism has checked it by the time it is relayed, so text is enough.
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    violations: response.headers.get("sl-violations"),
    text: await response.text(),
  };
}

function describeViolations(violations: PrismViolation[]): string {
  return violations.map((violation) => `${violation.location.join(".")}: ${violation.message}`).join("; ");
}

/**
 * Real requests through `prism proxy` in front of the gateway, for every implemented operation: the documented
 * success and each error status that can be provoked from outside. Prism checks every answer against the full
 * JSON Schema of the documented response.
 */
export async function runPrismProxyChecks(options: {
  generations: ApiGeneration[];
  operations: SpecOperation[];
  pending: Set<string>;
  context: ContractContext;
  outcome: ContractOutcome;
}): Promise<void> {
  const { outcome } = options;
  const ports = await findFreePorts(options.generations.length * 2);
  const started = await Promise.allSettled(
    options.generations.flatMap((generation, index) => {
      const specFile = path.join(projectRoot, "generated", "openapi", `${generation}.json`);
      return [true, false].map((errors, offset) =>
        startPrismProxy({ specFile, upstreamUrl: options.context.gatewayUrl, port: ports[index * 2 + offset], errors }),
      );
    }),
  );
  const proxies = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failure = started.find((result) => result.status === "rejected");
  if (failure) {
    for (const proxy of proxies) proxy.close();
    throw failure.reason;
  }
  try {
    for (const [index, generation] of options.generations.entries()) {
      const strict = proxies[index * 2];
      const lenient = proxies[index * 2 + 1];
      for (const operation of options.operations.filter((candidate) => candidate.generation === generation)) {
        const label = `${generation}.${operation.operationId}`;
        if (options.pending.has(label)) {
          outcome.skipped.push({ name: `prism ${label}`, reason: "pending (answers 501)" });
          continue;
        }
        for (const variant of callVariants) {
          if (!operation.responseStatuses.includes(variant)) continue;
          const name = `prism ${label} ${variant}`;
          const prepared = await prepareOperationCall(operation, variant, options.context, options.operations);
          if ("skip" in prepared) {
            outcome.skipped.push({ name, reason: prepared.skip });
            continue;
          }
          const viaLenient =
            invalidRequestVariants.has(variant) && !(variant === "401" && operation.operationId === "loginUser");
          options.context.setUpstreamFault(prepared.call.upstreamFault);
          const answer = await send(viaLenient ? lenient.url : strict.url, prepared.call)
            .catch((error: Error) => error)
            .finally(() => prepared.call.upstreamFault && options.context.setUpstreamFault(undefined));
          if (answer instanceof Error) {
            outcome.failed.push({ name, reason: `request failed: ${answer.message}` });
            continue;
          }
          if (
            answer.contentType.startsWith("application/problem+json") &&
            answer.text.includes("stoplight.io/prism/errors")
          ) {
            const problem = JSON.parse(answer.text) as { title: string; validation?: PrismViolation[] };
            outcome.failed.push({
              name,
              reason: `Prism: ${problem.title}: ${describeViolations(problem.validation ?? [])}`,
            });
            continue;
          }
          const responseViolations = (
            answer.violations ? (JSON.parse(answer.violations) as PrismViolation[]) : []
          ).filter((violation) => violation.location[0] === "response");
          if (responseViolations.length > 0) {
            outcome.failed.push({
              name,
              reason: `Prism: response violates the spec: ${describeViolations(responseViolations)}`,
            });
          } else if (String(answer.status) !== variant) {
            outcome.failed.push({
              name,
              reason: `expected ${variant}, got ${answer.status}: ${answer.text.slice(0, 300)}`,
            });
          } else outcome.passed.push(name);
        }
      }
    }
  } finally {
    for (const proxy of proxies) proxy.close();
  }
}

import type { FaultPlan } from "./fault-plan.js";

const numericFields = [
  "latencyMs",
  "status",
  "retryAfterSeconds",
  "resetMidStreamAfterChunks",
  "stallAfterChunks",
  "chunkDelayMs",
  "times",
] as const;

export class InvalidFaultHeaderError extends Error {}

/** Reads the per-request `x-fake-fault: <json>` header; throws InvalidFaultHeaderError when it is malformed. */
export function parseFaultHeader(value: string | string[] | undefined): FaultPlan | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(",") : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidFaultHeaderError("x-fake-fault must be a JSON object");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidFaultHeaderError("x-fake-fault must be a JSON object");
  }
  const candidate = parsed as Record<string, unknown>;
  for (const field of numericFields) {
    if (candidate[field] !== undefined && typeof candidate[field] !== "number") {
      throw new InvalidFaultHeaderError(`x-fake-fault.${field} must be a number`);
    }
  }
  if (candidate.resetBeforeHeaders !== undefined && typeof candidate.resetBeforeHeaders !== "boolean") {
    throw new InvalidFaultHeaderError("x-fake-fault.resetBeforeHeaders must be a boolean");
  }
  if (candidate.body !== undefined && (typeof candidate.body !== "object" || candidate.body === null)) {
    throw new InvalidFaultHeaderError("x-fake-fault.body must be an object");
  }
  return candidate as FaultPlan;
}

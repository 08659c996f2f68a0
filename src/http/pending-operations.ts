import type { ApiGeneration } from "./api-generation.js";

/**
 * Operations whose behaviour later work delivers. They answer 501 in their generation's envelope; the test run
 * prints this list, and it must shrink to nothing. Nothing listed here counts as done.
 */
export const pendingOperations = {
  management: [],
  openai: [],
  native: [],
  anthropic: [],
} as const satisfies Record<ApiGeneration, readonly string[]>;

export function listPendingOperations(): string[] {
  return Object.entries(pendingOperations).flatMap(([generation, operationIds]) =>
    operationIds.map((operationId) => `${generation}.${operationId}`),
  );
}

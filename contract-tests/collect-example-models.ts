import type { ContractChannelModels } from "./start-contract-gateway.js";
import { modelNotAvailableFor } from "./prepare-operation-call.js";
import type { SpecOperation } from "./read-spec-operations.js";

/**
 * Every model name the request examples use, split by family: `gmx-` names go to the native channel, `claude-`
 * names to the Anthropic one, the rest to the OpenAI-style one. New examples in the specs are served without touching
 * the harness. Each operation's model of the 503 check is served only by disabled channels.
 */
export function collectExampleModels(operations: SpecOperation[]): ContractChannelModels {
  const names = new Set<string>();
  for (const operation of operations) {
    for (const body of [operation.exampleJsonBody, operation.exampleMultipartFields] as Array<
      { model?: unknown } | undefined
    >) {
      if (typeof body?.model === "string") names.add(body.model);
    }
    for (const parameter of operation.parameters) {
      // The management API's `model` (a price to set) names no model to serve.
      if (operation.generation !== "management" && parameter.name === "model" && typeof parameter.example === "string")
        names.add(parameter.example);
    }
  }
  const models = [...names].map((name) => name.replace(/^models\//, ""));
  const served = new Set(models);
  const disabled = operations
    .map((operation) => modelNotAvailableFor(operation, served, "disabled"))
    .filter((name): name is string => name !== undefined);
  return {
    openai: models.filter((name) => !name.startsWith("gmx-") && !name.startsWith("claude-")),
    native: models.filter((name) => name.startsWith("gmx-")),
    disabled: [...new Set(disabled)],
    anthropic: models.filter((name) => name.startsWith("claude-")),
  };
}

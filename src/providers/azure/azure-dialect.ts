import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { OpenaiDialect } from "../openai/openai-dialect.js";
import { readAzureApiVersion } from "./azure-settings.js";

/**
 * Azure OpenAI's paths for one channel. On the v1 surface (`api_version: v1`) every operation is under
 * `/openai/v1/` with the deployment as `model` (the relay functions already send the mapped name there). On a dated
 * api-version an operation is under its deployment, `/openai/deployments/{deployment}/{operation}?api-version=…`;
 * Responses has no deployment path: preview api-versions serve it at `/openai/responses?api-version=…`, GA versions
 * do not serve it at all, which is refused before any upstream call with the setting to change.
 */
export const azureDialect: OpenaiDialect = {
  path(operation, attempt) {
    const apiVersion = readAzureApiVersion(attempt.channel);
    if (apiVersion === "v1") return `/openai/v1/${operation}`;
    const query = `api-version=${encodeURIComponent(apiVersion)}`;
    if (operation === "responses") {
      if (apiVersion.endsWith("-preview")) return `/openai/responses?${query}`;
      throw new InvalidRequestError(
        `The Responses API is not served by channel "${attempt.channel.name}": Azure OpenAI serves it on the v1 surface or a preview api-version, and the channel's settings.api_version is "${apiVersion}" (set it to "v1").`,
        { param: "settings.api_version" },
      );
    }
    return `/openai/deployments/${encodeURIComponent(attempt.upstreamModel)}/${operation}?${query}`;
  },
  cleanAnswer: removeContentFilterResults,
};

/**
 * Azure's content filter annotates answers (`prompt_filter_results` on the answer, `content_filter_results` on each
 * choice or image); OpenAI clients do not expect them, so they are taken out. A stream chunk that only carried the
 * prompt's filter results (Azure's first chunk, with no choices) leaves nothing for the client.
 */
export function removeContentFilterResults(answer: Record<string, unknown>): boolean {
  const hadPromptResults = "prompt_filter_results" in answer || "prompt_annotations" in answer;
  delete answer.prompt_filter_results;
  delete answer.prompt_annotations;
  for (const listName of ["choices", "data"]) {
    const list = answer[listName];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (item === null || typeof item !== "object") continue;
      delete (item as Record<string, unknown>).content_filter_results;
      delete (item as Record<string, unknown>).content_filter_result;
      delete (item as Record<string, unknown>).prompt_filter_results;
    }
  }
  const choices = answer.choices;
  const empty = Array.isArray(choices) && choices.length === 0 && (answer.usage === undefined || answer.usage === null);
  return !(hadPromptResults && empty);
}

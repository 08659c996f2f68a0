import type { components as OpenaiComponents } from "../../generated/types/openai.js";

type ResponsesRequest = OpenaiComponents["schemas"]["CreateResponseRequest"];
type ResponseObject = OpenaiComponents["schemas"]["ResponseObject"];

/** The fields of a response object that restate the request: the same in every snapshot of one response. */
export type ResponseSettings = Pick<
  ResponseObject,
  | "error"
  | "instructions"
  | "max_output_tokens"
  | "parallel_tool_calls"
  | "previous_response_id"
  | "reasoning"
  | "store"
  | "temperature"
  | "text"
  | "tool_choice"
  | "tools"
  | "top_p"
  | "truncation"
  | "user"
  | "metadata"
  | "background"
  | "service_tier"
  | "max_tool_calls"
  | "safety_identifier"
  | "prompt_cache_key"
>;

/**
 * The request's settings as a response built by the gateway restates them, OpenAI's defaults where the request is
 * silent, so clients and schema checks that expect OpenAI's whole response object find every field. `store` is
 * false: the native family keeps nothing to continue or retrieve. The temperature and top_p are the request's after
 * the spec's defaults were applied (null when the client sent null, and the upstream's own default then applies).
 */
export function echoResponseSettings(request: ResponsesRequest): ResponseSettings {
  const fields = request as Record<string, unknown>;
  return {
    error: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    store: false,
    temperature: request.temperature ?? null,
    text: { ...request.text, format: request.text?.format ?? { type: "text" } },
    tool_choice: request.tool_choice ?? "auto",
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: request.truncation ?? "disabled",
    user: request.user ?? null,
    metadata: request.metadata ?? {},
    background: false,
    service_tier: "default",
    max_tool_calls: request.max_tool_calls ?? null,
    safety_identifier: typeof fields.safety_identifier === "string" ? fields.safety_identifier : null,
    prompt_cache_key: typeof fields.prompt_cache_key === "string" ? fields.prompt_cache_key : null,
  };
}

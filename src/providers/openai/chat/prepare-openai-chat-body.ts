import type { components } from "../../../../generated/types/openai.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];

export interface PreparedChatBody {
  body: Record<string, unknown>;
  /** The client asked for the usage chunk (stream_options.include_usage). */
  clientWantsUsage: boolean;
  /** svc_thinking_to_content: reasoning text goes inline into content. */
  thinkingToContent: boolean;
}

/**
 * Our chat request as an OpenAI-compatible upstream takes it: the mapped model name; usage always requested on
 * streams (billing needs it; the chunk is hidden again from clients that did not ask); `enable_thinking` switched
 * off unless streaming (as documented: that family thinks only when streaming); our own `svc_thinking_to_content` and
 * `extra_body` kept out of the upstream body. `parameters` stays an object, as the chat API requires.
 */
export function prepareOpenaiChatBody(request: ChatRequest, upstreamModel: string): PreparedChatBody {
  const {
    svc_thinking_to_content: thinkingToContent,
    extra_body: extraBody,
    ...rest
  } = request as ChatRequest & Record<string, unknown>;
  void extraBody;
  const body: Record<string, unknown> = { ...rest, model: upstreamModel };
  const clientWantsUsage = request.stream_options?.include_usage === true;
  if (request.stream) body.stream_options = { ...(request.stream_options ?? {}), include_usage: true };
  if (body.enable_thinking === true && !request.stream) body.enable_thinking = false;
  return { body, clientWantsUsage, thinkingToContent: thinkingToContent === true };
}

import type { components } from "../../../generated/types/openai.js";
import { convertChatRequestToMessages } from "./chat/convert-chat-request-to-messages.js";
import { convertResponsesRequestToMessages } from "./responses/convert-responses-request-to-messages.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];
type ResponsesRequest = components["schemas"]["CreateResponseRequest"];

/**
 * The `max_tokens` a translated request asks Claude for when it thinks: Claude counts the thinking budget inside
 * `max_tokens`, so the translation raises it above the budget, past the client's cap. Read from the translation
 * itself so the hold and what is sent cannot disagree. Without thinking the client's cap stands (undefined here);
 * a request the translation refuses holds the client's cap too: the attempt fails with that 400 before anything
 * is sent, and the hold is refunded.
 */
export const claudeOutputTokenCap = {
  chat: (request: ChatRequest, upstreamModel: string) =>
    readMaxTokens(() => convertChatRequestToMessages(request, upstreamModel)),
  responses: (request: ResponsesRequest, upstreamModel: string) =>
    readMaxTokens(() => convertResponsesRequestToMessages(request, upstreamModel)),
};

function readMaxTokens(translate: () => Record<string, unknown>): number | undefined {
  try {
    const body = translate();
    return body.thinking !== undefined && typeof body.max_tokens === "number" ? body.max_tokens : undefined;
  } catch {
    return undefined;
  }
}

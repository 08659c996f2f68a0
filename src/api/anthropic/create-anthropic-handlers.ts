import type { Request } from "express";
import type { operations } from "../../../generated/types/anthropic.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";
import type { GatewayContext } from "../../gateway-context.js";
import { completeHandlerMap } from "../../http/complete-handler-map.js";
import type { OperationHandlerMap } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { pendingOperations } from "../../http/pending-operations.js";
import { readConversationKey } from "../../relay/read-conversation-key.js";
import { runRelay } from "../../relay/run-relay.js";
import { runUnbilledRelay } from "../../relay/run-unbilled-relay.js";

/** Anthropic's Messages API: typed body → one relay call (routing, reservation, attempts, settlement). */
export function createAnthropicHandlers(context: GatewayContext): OperationHandlerMap<operations> {
  return completeHandlerMap<operations, (typeof pendingOperations.anthropic)[number]>(
    {
      async createMessage(request, response) {
        const body = request.body as JsonRequestBody<operations["createMessage"]>;
        const promptTokenEstimate = estimatePromptTokens(body);
        await runRelay(context, request, response, {
          capability: "messages",
          input: { request: body, anthropicHeaders: readAnthropicHeaders(request), promptTokenEstimate },
          model: body.model,
          conversationKey: readConversationKey(request, body.metadata?.user_id),
          isStream: body.stream === true,
          promptTokenEstimate,
          maxOutputTokens: body.max_tokens,
        });
      },
      async countMessageTokens(request, response) {
        const body = request.body as JsonRequestBody<operations["countMessageTokens"]>;
        // Claude's channels count exactly; on other protocols the count is the estimate our reservations use.
        const count = await runUnbilledRelay(context, response, {
          capability: "messageTokenCount",
          model: body.model,
          input: { request: body, anthropicHeaders: readAnthropicHeaders(request) },
          answerWithoutUpstream: () => ({ input_tokens: estimatePromptTokens(body) }),
        });
        response.json({ input_tokens: count.input_tokens });
      },
    },
    pendingOperations.anthropic,
  );
}

/** The Anthropic headers a client sent, which go on to Claude's channels (a repeated header joined as one list). */
function readAnthropicHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ["anthropic-version", "anthropic-beta"]) {
    const value = request.headers[name];
    const joined = Array.isArray(value) ? value.join(",") : value;
    if (joined) headers[name] = joined;
  }
  return headers;
}

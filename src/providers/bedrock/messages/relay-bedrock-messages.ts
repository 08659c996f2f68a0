import { createSseWriter } from "../../../http/sse-writer.js";
import { recordStreamedText } from "../../contract/observed-usage.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { createAnthropicMessagesStreamTransform } from "../../anthropic-wire/create-anthropic-messages-stream-transform.js";
import { type AnthropicUsage, convertAnthropicUsage } from "../../anthropic-wire/anthropic-usage.js";
import { formatAnthropicErrorEvent } from "../../anthropic-wire/format-anthropic-error-event.js";
import type { MessagesCall } from "../../contract/messages-call.js";
import { bedrockModelPath, buildSignedBedrockRequest } from "../build-signed-bedrock-request.js";
import { pipeBedrockEventStream } from "../pipe-bedrock-event-stream.js";
import { convertMessagesRequestToBedrock } from "./convert-messages-request-to-bedrock.js";
import { createInvokeStreamToAnthropicEvents } from "./invoke-stream-to-anthropic-events.js";

/**
 * One Messages attempt on a Bedrock channel serving a Claude model: Claude's own body through InvokeModel
 * (`/model/{modelId}/invoke`, or `/invoke-with-response-stream`), so every Messages feature Claude has on Bedrock
 * passes through. The answer is Claude's message (the client's model name put back); a stream's Claude events come
 * base64-encoded inside AWS event stream frames and go to the client as Claude's SSE events, usage read from
 * `message_start` and `message_delta` as on Claude's own API.
 */
export async function relayBedrockMessages(call: MessagesCall, input: RelayAttemptInput): Promise<void> {
  const { attempt } = input;
  if (!servesClaudeBody(attempt.upstreamModel))
    throw new InvalidRequestError(
      `The Messages API reaches Claude models on Bedrock only; ${call.request.model} is not one on this channel.`,
      { param: "model" },
    );
  const stream = call.request.stream === true;
  const path = bedrockModelPath(attempt.upstreamModel, stream ? "invoke-with-response-stream" : "invoke");
  const body = JSON.stringify(convertMessagesRequestToBedrock(call.request, call.anthropicHeaders));
  const upstreamRequest = await buildSignedBedrockRequest(input, path, body, { stream });

  if (!stream) {
    const message = await sendUpstreamJsonRequest<{ model?: string; usage?: AnthropicUsage }>(attempt, upstreamRequest);
    if (message.usage) input.observed.usage = convertAnthropicUsage(message.usage);
    message.model = call.request.model;
    input.deliver(message);
    return;
  }

  const upstream = await sendUpstreamRequest(attempt, upstreamRequest);
  await pipeBedrockEventStream({
    upstreamBody: upstream.body,
    channelKeys: attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: (message) => formatAnthropicErrorEvent(message, input.requestId),
    transformer: createInvokeStreamToAnthropicEvents(
      createAnthropicMessagesStreamTransform({
        clientModel: call.request.model,
        requestId: input.requestId,
        onUsage: (usage) => {
          input.observed.usage = usage;
        },
        onText: (text) => recordStreamedText(input.observed, text),
      }),
    ),
  });
}

/**
 * Whether a Bedrock model id takes Claude's body: Anthropic's model ids and the inference profiles over them
 * (`us.anthropic.claude-…`), or an ARN, whose model the gateway cannot see (Bedrock judges it).
 */
function servesClaudeBody(modelId: string): boolean {
  return modelId.includes("anthropic.claude") || modelId.startsWith("arn:");
}

import type { components } from "../../../generated/types/openai.js";
import { createSseWriter } from "../../http/sse-writer.js";
import { recordStreamedText } from "../contract/observed-usage.js";
import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../upstream/send-upstream-request.js";
import { createChatCompletionId } from "../../http/create-chat-completion-id.js";
import { formatChatStreamErrorFrame } from "../../http/format-chat-stream-error-frame.js";
import { ConverseStreamToChat } from "./converse-stream-to-chat.js";
import type { ConverseResponse } from "./converse-types.js";
import { convertChatRequestToConverse } from "./convert-chat-request-to-converse.js";
import { convertConverseResponseToChat } from "./convert-converse-response-to-chat.js";
import { bedrockModelPath, buildSignedBedrockRequest } from "./build-signed-bedrock-request.js";
import { pipeBedrockEventStream } from "./pipe-bedrock-event-stream.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];

/**
 * One chat attempt on a Bedrock channel through the Converse API: `/model/{modelId}/converse` (or
 * `/converse-stream`) with the model id URL-encoded, the request signed per attempt. A stream is an AWS event
 * stream (pipeBedrockEventStream); one that stops before messageStop ends the client's stream with an error frame,
 * and the usage seen so far is billed.
 */
export async function relayBedrockChat(request: ChatRequest, input: RelayAttemptInput): Promise<void> {
  const { attempt } = input;
  const converse = convertChatRequestToConverse(request, attempt.upstreamModel);
  const stream = request.stream === true;
  const path = bedrockModelPath(attempt.upstreamModel, stream ? "converse-stream" : "converse");
  const upstreamRequest = await buildSignedBedrockRequest(input, path, JSON.stringify(converse), { stream });
  const id = createChatCompletionId();
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    const answer = await sendUpstreamJsonRequest<ConverseResponse>(attempt, upstreamRequest);
    const { completion, usage } = convertConverseResponseToChat(answer, { id, model: request.model, created });
    input.observed.usage = usage;
    input.deliver(completion);
    return;
  }
  const upstream = await sendUpstreamRequest(attempt, upstreamRequest);
  await pipeBedrockEventStream({
    upstreamBody: upstream.body,
    channelKeys: attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: formatChatStreamErrorFrame,
    transformer: new ConverseStreamToChat({
      id,
      model: request.model,
      created,
      clientWantsUsage: request.stream_options?.include_usage === true,
      onUsage: (usage) => {
        input.observed.usage = usage;
      },
      onText: (text) => recordStreamedText(input.observed, text),
    }),
  });
}

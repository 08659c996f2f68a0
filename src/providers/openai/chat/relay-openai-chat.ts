import type { Response } from "express";
import type { components } from "../../../../generated/types/openai.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { convertOpenaiChatUsage } from "../../../http/convert-openai-usage.js";
import { formatChatStreamErrorFrame } from "../../../http/format-chat-stream-error-frame.js";
import { createOpenaiChatStreamTransform } from "./create-openai-chat-stream-transform.js";
import { inlineReasoningIntoContent } from "./inline-reasoning-into-content.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { prepareOpenaiChatBody } from "./prepare-openai-chat-body.js";
import { recordStreamedText } from "../../contract/observed-usage.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];
type ChatCompletion = components["schemas"]["ChatCompletion"];

/** One chat attempt against an OpenAI-compatible channel: JSON answered whole, streams translated chunk by chunk. */
export async function relayOpenaiChat(
  request: ChatRequest,
  response: Response,
  input: RelayAttemptInput,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  const prepared = prepareOpenaiChatBody(withoutInjectedDefaults(request, response), input.attempt.upstreamModel);
  const upstreamRequest = {
    method: "POST",
    path: dialect.path("chat/completions", input.attempt),
    headers: input.upstreamHeaders({ stream: request.stream === true }),
    body: JSON.stringify(prepared.body),
    signal: input.signal,
  } as const;

  if (!request.stream) {
    const completion = await sendUpstreamJsonRequest<ChatCompletion>(input.attempt, upstreamRequest);
    if (completion.usage) input.observed.usage = convertOpenaiChatUsage(completion.usage);
    dialect.cleanAnswer?.(completion as unknown as Record<string, unknown>);
    completion.model = request.model;
    if (prepared.thinkingToContent) inlineReasoningIntoContent(completion);
    input.deliver(completion);
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    writer: createSseWriter(response),
    errorFrame: formatChatStreamErrorFrame,
    channelKeys: input.attempt.channel.keys,
    transformer: createOpenaiChatStreamTransform({
      clientModel: request.model,
      clientWantsUsage: prepared.clientWantsUsage,
      thinkingToContent: prepared.thinkingToContent,
      ...(dialect.cleanAnswer ? { cleanChunk: dialect.cleanAnswer } : {}),
      onUsage: (usage) => {
        input.observed.usage = usage;
      },
      onText: (text) => recordStreamedText(input.observed, text),
    }),
  });
}

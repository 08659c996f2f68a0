import type { components } from "../../../../generated/types/openai.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { recordStreamedText } from "../../contract/observed-usage.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { echoResponseSettings } from "../../../http/echo-response-settings.js";
import { bedrockModelPath, buildSignedBedrockRequest } from "../build-signed-bedrock-request.js";
import type { ConverseResponse } from "../converse-types.js";
import { pipeBedrockEventStream } from "../pipe-bedrock-event-stream.js";
import { ConverseResponsesBuilder } from "./converse-responses-builder.js";
import { ConverseStreamToResponses } from "./converse-stream-to-responses.js";
import { convertResponsesRequestToConverse } from "./convert-responses-request-to-converse.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];

/**
 * One Responses attempt on a Bedrock channel through the Converse API: the request restated as Converse, the
 * answer (or the event stream) built into a Responses object (or event sequence) by ConverseResponsesBuilder,
 * usage from Converse's own counts, cache reads and writes apart. Nothing is stored: `store` is false.
 */
export async function relayBedrockResponses(request: ResponsesRequest, input: RelayAttemptInput): Promise<void> {
  const { attempt } = input;
  // The spec's defaults (temperature, top_p) are OpenAI's: Converse gets only what the client sent.
  const converse = convertResponsesRequestToConverse(
    withoutInjectedDefaults(request, input.response),
    attempt.upstreamModel,
  );
  const stream = request.stream === true;
  const path = bedrockModelPath(attempt.upstreamModel, stream ? "converse-stream" : "converse");
  const upstreamRequest = await buildSignedBedrockRequest(input, path, JSON.stringify(converse), { stream });
  const created = Math.floor(Date.now() / 1000);
  const settings = echoResponseSettings(request);

  if (!stream) {
    const answer = await sendUpstreamJsonRequest<ConverseResponse>(attempt, upstreamRequest);
    const builder = new ConverseResponsesBuilder({ model: request.model, created, settings });
    for (const block of answer.output?.message?.content ?? []) {
      const toolUse = block.toolUse as { toolUseId?: string; name?: string; input?: unknown } | undefined;
      const reasoning = (block.reasoningContent as { reasoningText?: { text?: string } } | undefined)?.reasoningText;
      if (typeof block.text === "string") builder.text(block.text);
      else if (typeof reasoning?.text === "string") builder.reasoning(reasoning.text);
      else if (toolUse?.name) {
        builder.startToolUse(toolUse.toolUseId ?? "", toolUse.name);
        builder.toolInput(JSON.stringify(toolUse.input ?? {}));
      }
      builder.close();
    }
    const { response, usage } = builder.finish(answer.stopReason, answer.usage, created);
    input.observed.usage = usage;
    input.deliver(response);
    return;
  }

  const upstream = await sendUpstreamRequest(attempt, upstreamRequest);
  const transformer = new ConverseStreamToResponses({
    model: request.model,
    created,
    settings,
    now: () => Math.floor(Date.now() / 1000),
    onUsage: (usage) => {
      input.observed.usage = usage;
    },
    onText: (text) => recordStreamedText(input.observed, text),
  });
  await pipeBedrockEventStream({
    upstreamBody: upstream.body,
    channelKeys: attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: (message) => transformer.errorFrame(message),
    transformer,
  });
}

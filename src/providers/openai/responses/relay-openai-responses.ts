import type { Response } from "express";
import type { components } from "../../../../generated/types/openai.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { convertOpenaiResponsesUsage } from "../../../http/convert-openai-usage.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { createOpenaiResponsesStreamTransform } from "./create-openai-responses-stream-transform.js";
import { recordStreamedText } from "../../contract/observed-usage.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];
type ResponseObject = components["schemas"]["ResponseObject"];

/**
 * One Responses-API attempt against an OpenAI-compatible channel; previous_response_id and item_reference pass
 * through as they are (the relay sends them to the channel and key that made what they name). The ids the answer
 * makes (the response and its output items) are noted as soon as they are seen, for those continuations.
 */
export async function relayOpenaiResponses(
  request: ResponsesRequest,
  response: Response,
  input: RelayAttemptInput,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  const upstreamRequest = {
    method: "POST",
    path: dialect.path("responses", input.attempt),
    headers: input.upstreamHeaders({ stream: request.stream === true }),
    body: JSON.stringify({ ...withoutInjectedDefaults(request, response), model: input.attempt.upstreamModel }),
    signal: input.signal,
  } as const;
  if (!request.stream) {
    const result = await sendUpstreamJsonRequest<ResponseObject>(input.attempt, upstreamRequest);
    if (result.usage) input.observed.usage = convertOpenaiResponsesUsage(result.usage);
    input.noteCreatedIds(readCreatedIds(result));
    result.model = request.model;
    input.deliver(result);
    return;
  }
  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  const { transformer, errorFrame } = createOpenaiResponsesStreamTransform({
    clientModel: request.model,
    onUsage: (usage) => {
      input.observed.usage = usage;
    },
    onText: (text) => recordStreamedText(input.observed, text),
    onCreatedId: (id) => input.noteCreatedIds([id]),
  });
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    writer: createSseWriter(response),
    errorFrame,
    transformer,
    channelKeys: input.attempt.channel.keys,
  });
}

/** The response's id and its output items' ids: what a later request may name to continue from this answer. */
function readCreatedIds(result: ResponseObject): string[] {
  const ids = [result.id, ...(result.output ?? []).map((item) => item.id)];
  return ids.filter((id): id is string => typeof id === "string" && id !== "");
}

import type { Response } from "express";
import type { components } from "../../../generated/types/openai.js";
import { createSseWriter } from "../../http/sse-writer.js";
import { pipeUpstreamEvents } from "../../relay/pipe-upstream-events.js";
import { withoutInjectedDefaults } from "../../http/client-body-fields.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { sendUpstreamRequest } from "../../relay/send-upstream-request.js";
import { sendUpstreamJsonRequest } from "../../relay/send-upstream-json-request.js";
import { convertOpenaiResponsesUsage } from "./convert-openai-usage.js";
import { openaiDialect, type OpenaiDialect } from "./openai-dialect.js";
import { createOpenaiResponsesStreamTransform } from "./create-openai-responses-stream-transform.js";
import { recordStreamedText } from "../../relay/observed-usage.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];
type ResponseObject = components["schemas"]["ResponseObject"];

/** One Responses-API attempt against an OpenAI-compatible channel; previous_response_id passes through as is. */
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
  });
  await pipeUpstreamEvents({ upstreamBody: upstream.body, writer: createSseWriter(response), errorFrame, transformer });
}

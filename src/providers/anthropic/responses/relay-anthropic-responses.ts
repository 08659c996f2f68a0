import type { components } from "../../../../generated/types/openai.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { recordStreamedText } from "../../contract/observed-usage.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { echoResponseSettings } from "../../../http/echo-response-settings.js";
import { readClientAnthropicHeaders, withClientAnthropicHeaders } from "../anthropic-headers.js";
import { type AnthropicEndpoint, anthropicOwnEndpoint } from "../anthropic-endpoint.js";
import { ClaudeToResponsesStreamTransform } from "./claude-to-responses-stream-transform.js";
import { type ClaudeMessage, convertMessageToResponse } from "./convert-message-to-response.js";
import { convertResponsesRequestToMessages, findResponsesFormatTool } from "./convert-responses-request-to-messages.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];

/** One Responses attempt against a Claude channel, on Claude's protocol (Messages, JSON or stream) at `endpoint`. */
export async function relayAnthropicResponses(
  request: ResponsesRequest,
  input: RelayAttemptInput,
  endpoint: AnthropicEndpoint = anthropicOwnEndpoint,
): Promise<void> {
  const clientRequest = withoutInjectedDefaults(request, input.response);
  const { model: _model, ...body } = convertResponsesRequestToMessages(clientRequest, input.attempt.upstreamModel);
  const stream = request.stream === true;
  const upstreamRequest = {
    method: "POST",
    path: endpoint.path(input.attempt, stream),
    headers: withClientAnthropicHeaders(
      input.upstreamHeaders({ stream }),
      readClientAnthropicHeaders(input.clientHeader),
    ),
    body: JSON.stringify(endpoint.body(body, input.attempt, stream)),
    signal: input.signal,
  } as const;
  const created = Math.floor(Date.now() / 1000);
  const settings = echoResponseSettings(request);
  const formatToolName = findResponsesFormatTool(clientRequest)?.name as string | undefined;

  if (!stream) {
    const message = await sendUpstreamJsonRequest<ClaudeMessage>(input.attempt, upstreamRequest);
    const converted = convertMessageToResponse(message, {
      model: request.model,
      created,
      completedAt: Math.floor(Date.now() / 1000),
      settings,
      formatToolName,
    });
    input.observed.usage = converted.usage;
    input.deliver(converted.response);
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  const transformer = new ClaudeToResponsesStreamTransform({
    model: request.model,
    created,
    settings,
    formatToolName,
    now: () => Math.floor(Date.now() / 1000),
    onUsage: (usage) => {
      input.observed.usage = usage;
    },
    onText: (text) => recordStreamedText(input.observed, text),
  });
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    channelKeys: input.attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: (message) => transformer.errorFrame(message),
    transformer,
  });
}

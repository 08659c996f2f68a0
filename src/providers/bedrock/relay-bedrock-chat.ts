import { EventStreamCodec } from "@smithy/eventstream-codec";
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
import { signBedrockRequest } from "./sign-bedrock-request.js";
import { EventStreamFrameSplitter } from "./split-event-stream-frames.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/**
 * One chat attempt on a Bedrock channel through the Converse API: `/model/{modelId}/converse` (or
 * `/converse-stream`) with the model id URL-encoded, the request signed per attempt. A stream is an AWS event
 * stream, decoded frame by frame by AWS's codec (prelude and message CRCs checked); a frame that does not decode, an
 * exception frame or a stream that stops before messageStop ends the client's stream with an error frame, and the
 * usage seen so far is billed.
 */
export async function relayBedrockChat(request: ChatRequest, input: RelayAttemptInput): Promise<void> {
  const { attempt } = input;
  const converse = convertChatRequestToConverse(request, attempt.upstreamModel);
  const stream = request.stream === true;
  const path = `/model/${encodeURIComponent(attempt.upstreamModel)}/${stream ? "converse-stream" : "converse"}`;
  const body = JSON.stringify(converse);
  const headers = await signBedrockRequest({
    baseUrl: attempt.channel.baseUrl,
    path,
    body,
    region: attempt.channel.settings.region ?? "",
    key: attempt.upstreamKey,
    headers: {
      "content-type": "application/json",
      accept: stream ? "application/vnd.amazon.eventstream" : "application/json",
    },
  });
  const upstreamRequest = { method: "POST", path, headers, body, signal: input.signal } as const;
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
  const writer = createSseWriter(input.response);
  const translator = new ConverseStreamToChat({
    id,
    model: request.model,
    created,
    clientWantsUsage: request.stream_options?.include_usage === true,
    onUsage: (usage) => {
      input.observed.usage = usage;
    },
    onText: (text) => recordStreamedText(input.observed, text),
  });
  const codec = new EventStreamCodec(
    (bytes) => utf8Decoder.decode(bytes),
    (text) => utf8Encoder.encode(text),
  );
  const splitter = new EventStreamFrameSplitter();
  const fail = (message: string) => writer.sendRaw(formatChatStreamErrorFrame(message));
  try {
    for await (const piece of upstream.body) {
      for (const frame of splitter.push(piece as Buffer)) {
        const message = codec.decode(frame);
        const messageType = String(message.headers[":message-type"]?.value ?? "event");
        const payload = JSON.parse(utf8Decoder.decode(message.body) || "{}") as Record<string, unknown>;
        if (messageType !== "event") {
          const kind = String(message.headers[":exception-type"]?.value ?? message.headers[":error-code"]?.value);
          const said = typeof payload.message === "string" ? `: ${payload.message}` : ".";
          await fail(`The upstream failed mid-stream (${kind})${said}`);
          return;
        }
        for (const chunk of translator.accept(String(message.headers[":event-type"]?.value), payload))
          await writer.send(chunk);
      }
    }
    splitter.end();
  } catch {
    if (input.signal.aborted) return;
    await fail("The upstream sent a broken event stream frame.");
    return;
  }
  if (!translator.finished) {
    await fail("The upstream stream ended before the answer was finished.");
    return;
  }
  await writer.send("[DONE]");
}

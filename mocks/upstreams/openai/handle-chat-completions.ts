import type { FakeExchange } from "../shared/fake-exchange.js";
import type { IdSequence } from "../shared/create-id-sequence.js";
import { sendJson } from "../shared/send-json.js";
import { writeSseEvents } from "../shared/write-sse-events.js";
import { createChatCompletion } from "./create-chat-completion.js";
import { createChatStream } from "./create-chat-stream.js";
import { planChatReply } from "./plan-chat-reply.js";
import { readJsonObjectBody } from "./read-json-object-body.js";
import { validateChatRequest } from "./validate-chat-request.js";

/** POST /v1/chat/completions. */
export async function handleChatCompletions(exchange: FakeExchange, ids: IdSequence): Promise<void> {
  const request = validateChatRequest(readJsonObjectBody(exchange));
  const meta = { id: ids.next("chatcmpl-fake"), created: Math.floor(exchange.now() / 1000), model: request.model };
  const plan = planChatReply(request, () => ids.next("call_fake"));
  if (request.stream) {
    await writeSseEvents(exchange, createChatStream(plan, meta, request.includeUsage));
    return;
  }
  await sendJson(exchange, 200, createChatCompletion(plan, meta));
}

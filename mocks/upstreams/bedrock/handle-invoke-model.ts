import { EventStreamCodec } from "@smithy/eventstream-codec";
import { AnthropicRequestError } from "../anthropic/anthropic-request-error.js";
import { countPromptTokens } from "../anthropic/count-prompt-tokens.js";
import { planMessageReply } from "../anthropic/plan-message-reply.js";
import { validateMessageRequest } from "../anthropic/validate-message-request.js";
import { buildMessage, buildMessageEvents } from "../anthropic/write-message-answer.js";
import { createEmbeddingVector } from "../openai/create-embedding-vector.js";
import type { IdSequence } from "../shared/create-id-sequence.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { splitWords } from "../shared/split-words.js";

/** A refusal in Bedrock's shape: the exception's name and a message. */
export class BedrockRequestError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface InvokeModelState {
  ids: IdSequence;
  /** Claude's prompt cache on this fake account: a prefix sent again is read from it. */
  cachedPrefixes: Set<string>;
}

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const invalid = (message: string) => new BedrockRequestError(400, "ValidationException", message);

/**
 * InvokeModel and InvokeModelWithResponseStream for the model families the fake hosts, each with its own body:
 * Claude (`anthropic.claude-*`, Anthropic's Messages body with `anthropic_version: bedrock-2023-05-31`, no `model`
 * and no `stream`, answered by the Anthropic fake's rules), Titan text embeddings (`amazon.titan-embed-text-*`:
 * `inputText`, `dimensions`, `normalize`; `inputTextTokenCount` = words) and Cohere embeddings (`cohere.embed-*`:
 * `texts`, `input_type`; no token count, as Bedrock's Cohere answers have none). `[bad-crc]` in a Claude stream's
 * prompt breaks its fourth frame.
 */
export async function handleInvokeModel(
  exchange: FakeExchange,
  modelId: string,
  stream: boolean,
  state: InvokeModelState,
): Promise<void> {
  if (exchange.body.invalidJson) throw invalid("Malformed input request, please reformat your input and try again.");
  const body = exchange.body.value as Record<string, unknown>;
  if (/anthropic\.claude/.test(modelId)) return invokeClaude(exchange, modelId, body, stream, state);
  if (stream) throw invalid(`The model ${modelId} does not support streaming.`);
  if (modelId.startsWith("amazon.titan-embed-text")) return invokeTitanEmbed(exchange, body);
  if (modelId.startsWith("cohere.embed")) return invokeCohereEmbed(exchange, body);
  throw invalid(`The provided model identifier is invalid.`);
}

async function invokeClaude(
  exchange: FakeExchange,
  modelId: string,
  body: Record<string, unknown>,
  stream: boolean,
  state: InvokeModelState,
): Promise<void> {
  for (const key of ["model", "stream"])
    if (key in body)
      throw invalid(
        `Malformed input request: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      );
  if (body.anthropic_version !== "bedrock-2023-05-31")
    throw invalid("Malformed input request: anthropic_version: bedrock-2023-05-31 is required.");
  let request: ReturnType<typeof validateMessageRequest>;
  try {
    request = validateMessageRequest({ ...body, model: modelId }, { countOnly: false });
  } catch (error) {
    if (error instanceof AnthropicRequestError) throw invalid(error.message);
    throw error;
  }
  const prompt = countPromptTokens(request);
  const cacheRead = prompt.prefixKey !== undefined && state.cachedPrefixes.has(prompt.prefixKey);
  if (prompt.prefixKey !== undefined) state.cachedPrefixes.add(prompt.prefixKey);
  const plan = planMessageReply(request, prompt, cacheRead, state.ids);
  if (!stream) {
    await sendJson(exchange, 200, buildMessage(plan, modelId));
    return;
  }
  exchange.response.writeHead(200, {
    "content-type": "application/vnd.amazon.eventstream",
    "x-amzn-requestid": "fake-request-000002",
  });
  // `[bad-crc]` in the prompt: the fourth frame's message CRC is wrong, and the stream ends there.
  const badCrc = exchange.body.raw.toString("utf8").includes("[bad-crc]");
  for (const [index, event] of buildMessageEvents(plan, modelId).entries()) {
    const data = JSON.parse(event.data) as Record<string, unknown>;
    // Bedrock adds its invocation metrics to Claude's last event.
    if (data.type === "message_stop")
      data["amazon-bedrock-invocationMetrics"] = {
        inputTokenCount: plan.usage.input_tokens,
        outputTokenCount: plan.usage.output_tokens,
        invocationLatency: 42,
        firstByteLatency: 7,
      };
    const bytes = Buffer.from(JSON.stringify(data)).toString("base64");
    const frame = Buffer.from(
      codec.encode({
        headers: {
          ":event-type": { type: "string", value: "chunk" },
          ":content-type": { type: "string", value: "application/json" },
          ":message-type": { type: "string", value: "event" },
        },
        body: new TextEncoder().encode(JSON.stringify({ bytes })),
      }),
    );
    if (badCrc && index === 3) {
      frame[frame.length - 1]! ^= 0xff;
      exchange.response.end(frame);
      return;
    }
    exchange.response.write(frame);
  }
  exchange.response.end();
}

const titanDimensions = new Set([256, 512, 1024]);

async function invokeTitanEmbed(exchange: FakeExchange, body: Record<string, unknown>): Promise<void> {
  for (const key of Object.keys(body))
    if (!["inputText", "dimensions", "normalize", "embeddingTypes"].includes(key))
      throw invalid(
        `Malformed input request: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      );
  if (typeof body.inputText !== "string" || body.inputText === "")
    throw invalid("Malformed input request: #/inputText: expected minLength: 1");
  const dimensions = body.dimensions ?? 1024;
  if (typeof dimensions !== "number" || !titanDimensions.has(dimensions))
    throw invalid(`Malformed input request: #/dimensions: ${String(dimensions)} is not a valid enum value`);
  const embedding = createEmbeddingVector(body.inputText, dimensions);
  await sendJson(exchange, 200, {
    embedding,
    embeddingsByType: { float: embedding },
    inputTextTokenCount: splitWords(body.inputText).length,
  });
}

const cohereInputTypes = new Set(["search_document", "search_query", "classification", "clustering"]);

async function invokeCohereEmbed(exchange: FakeExchange, body: Record<string, unknown>): Promise<void> {
  const texts = body.texts;
  if (
    !Array.isArray(texts) ||
    texts.length === 0 ||
    texts.length > 96 ||
    texts.some((text) => typeof text !== "string")
  )
    throw invalid("Malformed input request: #/texts: expected between 1 and 96 strings");
  if (typeof body.input_type !== "string" || !cohereInputTypes.has(body.input_type))
    throw invalid(
      "Malformed input request: #/input_type: required, one of search_document, search_query, classification, clustering",
    );
  await sendJson(exchange, 200, {
    id: "fake-cohere-000001",
    response_type: "embeddings_floats",
    texts,
    embeddings: (texts as string[]).map((text) => createEmbeddingVector(text, 1024)),
  });
}

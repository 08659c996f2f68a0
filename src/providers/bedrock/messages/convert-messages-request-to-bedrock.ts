import type { CreateMessageRequest } from "../../contract/messages-call.js";

/** The protocol version Bedrock's Claude models take in the body, in place of the `anthropic-version` header. */
export const bedrockAnthropicVersion = "bedrock-2023-05-31";

/**
 * A Messages request as Claude on Bedrock's InvokeModel takes it: the client's body (unknown and beta fields too)
 * without `model` (the model is in the path) and without `stream` (the operation says it; Bedrock refuses both as
 * extraneous keys), with `anthropic_version` in the body and the client's `anthropic-beta` header as the body's
 * `anthropic_beta` list.
 */
export function convertMessagesRequestToBedrock(
  request: CreateMessageRequest,
  anthropicHeaders: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = request as CreateMessageRequest & { stream?: boolean };
  const beta = (anthropicHeaders["anthropic-beta"] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return { anthropic_version: bedrockAnthropicVersion, ...rest, ...(beta.length > 0 ? { anthropic_beta: beta } : {}) };
}

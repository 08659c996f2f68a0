import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { signBedrockRequest } from "./sign-bedrock-request.js";

/** The path of one model operation (`converse`, `invoke`, …); model ids hold `:`, so the id is URL-encoded. */
export function bedrockModelPath(modelId: string, operation: string): string {
  return `/model/${encodeURIComponent(modelId)}/${operation}`;
}

/**
 * One Bedrock Runtime call of an attempt, signed for the channel's region just before it is sent (a SigV4
 * signature covers the path and the body, so each call is signed on its own). A stream asks for AWS event stream
 * frames.
 */
export async function buildSignedBedrockRequest(
  input: RelayAttemptInput,
  path: string,
  body: string,
  options: { stream: boolean },
) {
  const { attempt } = input;
  const headers = await signBedrockRequest({
    baseUrl: attempt.channel.baseUrl,
    path,
    body,
    region: attempt.channel.settings.region ?? "",
    key: attempt.upstreamKey,
    headers: {
      "content-type": "application/json",
      accept: options.stream ? "application/vnd.amazon.eventstream" : "application/json",
    },
  });
  return { method: "POST", path, headers, body, signal: input.signal } as const;
}

import { buildUpstreamHeaders } from "../../upstream/build-upstream-headers.js";
import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import { vertexTokens } from "./create-vertex-token-cache.js";

/**
 * Runs one attempt with the channel key's access token as `Authorization: Bearer`. A 401 before anything reached
 * the client (a token revoked or expired early) is tried once more with a freshly exchanged token.
 */
export async function withVertexAccess(
  input: RelayAttemptInput,
  run: (authorized: RelayAttemptInput) => Promise<void>,
): Promise<void> {
  const authorize = async (refresh: boolean): Promise<RelayAttemptInput> => {
    const token = await vertexTokens.get(input.attempt.upstreamKey, { refresh });
    const credentials = { authorization: `Bearer ${token}` };
    return { ...input, upstreamHeaders: (options) => buildUpstreamHeaders(credentials, options) };
  };
  try {
    await run(await authorize(false));
  } catch (error) {
    if (!isUnauthorized(error) || input.response.headersSent || input.signal.aborted) throw error;
    await run(await authorize(true));
  }
}

/** A 401 from Vertex, also when a capability's error table wrapped it (images keep it as the cause). */
function isUnauthorized(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; depth += 1) {
    if (current instanceof UpstreamFailure && current.upstreamStatusCode === 401) return true;
    current = current.cause;
  }
  return false;
}

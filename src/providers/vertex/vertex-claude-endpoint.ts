import type { AnthropicEndpoint } from "../anthropic/anthropic-endpoint.js";
import { readVertexLocation } from "./vertex-settings.js";

/** The protocol version Claude on Vertex AI takes in the body, in place of the `anthropic-version` header. */
export const vertexAnthropicVersion = "vertex-2023-10-16";

/** Whether an upstream model name on a Vertex channel is one of Anthropic's Claude models (`claude-…@date`). */
export function isVertexClaudeModel(upstreamModel: string): boolean {
  return upstreamModel.startsWith("claude-");
}

/**
 * Claude on Vertex AI: publisher `anthropic` under the channel's project and region, `:rawPredict` (or
 * `:streamRawPredict`, an SSE stream of Claude's own events), the body without `model` (Vertex refuses it) and
 * with `anthropic_version: vertex-2023-10-16`; `stream` says which of the two it is.
 */
export const vertexClaudeEndpoint: AnthropicEndpoint = {
  path(attempt, stream) {
    const { projectId, region } = readVertexLocation(attempt);
    return `/v1/projects/${encodeURIComponent(projectId)}/locations/${encodeURIComponent(region)}/publishers/anthropic/models/${encodeURIComponent(attempt.upstreamModel)}:${stream ? "streamRawPredict" : "rawPredict"}`;
  },
  body: (body, _attempt, stream) => {
    const { stream: _stream, ...rest } = body;
    return { anthropic_version: vertexAnthropicVersion, ...rest, ...(stream ? { stream: true } : {}) };
  },
  forwardsVersionHeader: false,
};

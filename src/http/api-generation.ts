export type ApiGeneration = "management" | "openai" | "native" | "anthropic";

/**
 * Which of the four contracts a path belongs to. Newer native SDKs call `/v1/models/{model}:method`,
 * so a colon after `/v1/models/` marks the native generation even under `/v1`; Anthropic's clients call
 * `/v1/messages` (Claude Code with `?beta=true`), which has its own contract and error envelope.
 */
export function selectApiGeneration(path: string): ApiGeneration | undefined {
  if (path.startsWith("/api/")) return "management";
  if (path.startsWith("/v1/messages") && isMessagesPath(path)) return "anthropic";
  if (path.startsWith("/v1beta/")) return "native";
  if (path.startsWith("/v1/models/") && path.includes(":")) return "native";
  if (path.startsWith("/v1/") || path === "/v1" || path.startsWith("/llm-api/")) return "openai";
  return undefined;
}

/** `/v1/messages` and what lies under it, with or without a query (the app's own handle sees the raw URL). */
function isMessagesPath(path: string): boolean {
  const next = path.charCodeAt("/v1/messages".length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */;
}

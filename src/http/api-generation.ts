export type ApiGeneration = "management" | "openai" | "native";

/**
 * Which of the three contracts a path belongs to. Newer native SDKs call `/v1/models/{model}:method`,
 * so a colon after `/v1/models/` marks the native generation even under `/v1`.
 */
export function selectApiGeneration(path: string): ApiGeneration | undefined {
  if (path.startsWith("/api/")) return "management";
  if (path.startsWith("/v1beta/")) return "native";
  if (path.startsWith("/v1/models/") && path.includes(":")) return "native";
  if (path.startsWith("/v1/") || path === "/v1" || path.startsWith("/llm-api/")) return "openai";
  return undefined;
}

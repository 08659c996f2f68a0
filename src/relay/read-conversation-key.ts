import type { Request } from "express";

/**
 * What ties a request to its conversation for conversation affinity, in order: the session id Claude Code sends
 * with every request of a session (`x-claude-code-session-id`), else the body's own key given by the handler
 * (`metadata.user_id` on Messages, `prompt_cache_key` on chat and Responses). Undefined when there is none: such a
 * request is routed by weight alone.
 */
export function readConversationKey(request: Request, bodyKey: string | null | undefined): string | undefined {
  const header = request.headers["x-claude-code-session-id"];
  const session = Array.isArray(header) ? header[0] : header;
  if (session) return session;
  return typeof bodyKey === "string" && bodyKey !== "" ? bodyKey : undefined;
}

/** How a chat stream that fails after its first byte ends: one OpenAI error frame, then `[DONE]`. */
export function formatChatStreamErrorFrame(message: string): string {
  return `data: ${JSON.stringify({ error: { message, type: "upstream_error", code: "bad_response" } })}\n\ndata: [DONE]\n\n`;
}

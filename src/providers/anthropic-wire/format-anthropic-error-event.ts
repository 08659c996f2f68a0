/**
 * The `error` event that ends a Messages stream which failed after it started, in Anthropic's envelope (its SDKs
 * raise it as an APIError of that type).
 */
export function formatAnthropicErrorEvent(message: string, requestId: string, type = "api_error"): string {
  return `event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message }, request_id: requestId })}\n\n`;
}

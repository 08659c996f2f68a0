import type { IdlePing } from "../../upstream/pump-upstream-stream.js";

/**
 * The `ping` Anthropic sends on a Messages stream while the model is busy, as the gateway sends it on the Messages
 * streams it translates from another protocol: after 10 seconds without an event, and every 10 seconds while the
 * upstream stays silent (a model thinking before it writes), so Claude Code, the SDKs and the proxies between do
 * not take the quiet stream for a dead one. Streams from Claude channels carry Claude's own pings unchanged.
 */
export const anthropicIdlePing: IdlePing = {
  frame: `event: ping\ndata: ${JSON.stringify({ type: "ping" })}\n\n`,
  intervalMs: 10_000,
};

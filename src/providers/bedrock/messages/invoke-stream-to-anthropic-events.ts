import type { TransformStreamDefaultController } from "node:stream/web";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";
import type { BedrockStreamEvent, BedrockStreamTransformer } from "../pipe-bedrock-event-stream.js";

/** The field Bedrock adds to a Claude stream's last event; Anthropic's clients know nothing of it. */
const invocationMetricsField = "amazon-bedrock-invocationMetrics";

/**
 * InvokeModelWithResponseStream events → Anthropic stream events for a Messages transformer. Each `chunk` event
 * carries one of Claude's own stream events, base64-encoded in `bytes`; it is decoded and handed on as the SSE event
 * Claude's API would have sent, without Bedrock's invocation metrics. A chunk that does not decode fails the
 * stream like a broken frame.
 */
export function createInvokeStreamToAnthropicEvents(inner: StreamEventTransformer): BedrockStreamTransformer {
  return {
    transform(event: BedrockStreamEvent, controller: TransformStreamDefaultController<string>) {
      if (event.type !== "chunk") return;
      const bytes = event.payload.bytes;
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(Buffer.from(typeof bytes === "string" ? bytes : "", "base64").toString("utf8"));
      } catch (error) {
        controller.error(error);
        return;
      }
      delete parsed[invocationMetricsField];
      const type = typeof parsed.type === "string" ? parsed.type : "message";
      inner.transform({ event: type, data: JSON.stringify(parsed), id: undefined }, controller);
    },
    flush: (controller) => inner.flush?.(controller),
    cancel: (reason) => inner.cancel?.(reason),
  };
}

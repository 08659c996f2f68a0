import type { MeteredUsage } from "../../billing/metered-usage.js";
import { convertOpenaiResponsesUsage } from "./convert-openai-usage.js";
import type { StreamEventTransformer } from "../../relay/stream-event-transformer.js";

interface ResponsesEvent {
  type?: string;
  delta?: string;
  response?: { model?: string; usage?: Parameters<typeof convertOpenaiResponsesUsage>[0] | null };
}

/**
 * Responses-API events pass through in order with their `event:` names; the response object's model is put back
 * to the client's name, usage is read from `response.completed`, text deltas are counted for cut-short streams.
 */
export function createOpenaiResponsesStreamTransform(options: {
  clientModel: string;
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
}): StreamEventTransformer {
  return {
    transform(event, controller) {
      let payload: ResponsesEvent;
      try {
        payload = JSON.parse(event.data) as ResponsesEvent;
      } catch {
        controller.enqueue(
          `event: error\ndata: ${JSON.stringify({ type: "error", message: "The upstream sent a malformed stream event.", code: "bad_response" })}\n\n`,
        );
        return;
      }
      if (payload.response?.model !== undefined) payload.response.model = options.clientModel;
      if (payload.type === "response.completed" && payload.response?.usage)
        options.onUsage(convertOpenaiResponsesUsage(payload.response.usage));
      if (payload.type === "response.output_text.delta" && payload.delta) options.onText(payload.delta);
      const name = event.event ?? payload.type;
      controller.enqueue(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(payload)}\n\n`);
    },
  };
}

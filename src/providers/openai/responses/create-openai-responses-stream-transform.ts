import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { convertOpenaiResponsesUsage } from "../../../http/convert-openai-usage.js";
import type { StreamEventTransformer } from "../../../upstream/stream-event-transformer.js";

interface ResponsesEvent {
  type?: string;
  delta?: string;
  sequence_number?: number;
  response?: { id?: unknown; model?: string; usage?: Parameters<typeof convertOpenaiResponsesUsage>[0] | null };
  item?: { id?: unknown };
}

/** The events after which the upstream sends nothing more; each of the first three may carry the final usage. */
const finalResponseEvents = new Set(["response.completed", "response.incomplete", "response.failed"]);

/**
 * Responses-API events pass through in order with their `event:` names; the response object's model is put back
 * to the client's name, usage is read from the final response event (`response.incomplete` is billed too: the
 * tokens up to max_output_tokens were produced), text deltas are counted for cut-short streams. A stream that is
 * malformed, stops before a final event, or breaks (the pipe's `errorFrame`) ends with an `error` event numbered
 * after the last one relayed. The ids the stream announces are reported as they come, for continuations.
 */
export function createOpenaiResponsesStreamTransform(options: {
  clientModel: string;
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
  /** Each upstream id the stream announces (the response at its creation, each output item as it is added). */
  onCreatedId?(id: string): void;
}): { transformer: StreamEventTransformer; errorFrame(message: string): string } {
  let nextSequenceNumber = 0;
  let ended = false;
  const errorEvent = (message: string, code: string) =>
    `event: error\ndata: ${JSON.stringify({ type: "error", sequence_number: nextSequenceNumber++, message, code })}\n\n`;
  const transformer: StreamEventTransformer = {
    transform(event, controller) {
      if (ended) return;
      let payload: ResponsesEvent;
      try {
        payload = JSON.parse(event.data) as ResponsesEvent;
      } catch {
        ended = true;
        controller.enqueue(errorEvent("The upstream sent a malformed stream event.", "bad_response"));
        return;
      }
      if (typeof payload.sequence_number === "number") nextSequenceNumber = payload.sequence_number + 1;
      if (payload.response?.model !== undefined) payload.response.model = options.clientModel;
      const isFinal = payload.type !== undefined && finalResponseEvents.has(payload.type);
      if (isFinal && payload.response?.usage) options.onUsage(convertOpenaiResponsesUsage(payload.response.usage));
      if (isFinal || payload.type === "error") ended = true;
      if (payload.type === "response.output_text.delta" && payload.delta) options.onText(payload.delta);
      const createdId =
        payload.type === "response.created"
          ? payload.response?.id
          : payload.type === "response.output_item.added"
            ? payload.item?.id
            : undefined;
      if (typeof createdId === "string" && createdId !== "") options.onCreatedId?.(createdId);
      const name = event.event ?? payload.type;
      controller.enqueue(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(payload)}\n\n`);
      // Nothing follows a final event: ending here makes it the stream's final frame, which waits for settlement.
      if (isFinal) controller.terminate();
    },
    flush(controller) {
      if (!ended)
        controller.enqueue(errorEvent("The upstream stream ended before the answer was finished.", "upstream_error"));
    },
  };
  return { transformer, errorFrame: (message) => errorEvent(message, "bad_response") };
}

import type { TransformStreamDefaultController } from "node:stream/web";
import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { ResponseSettings } from "../../../http/echo-response-settings.js";
import type { ConverseUsage } from "../converse-types.js";
import type { BedrockStreamEvent, BedrockStreamTransformer } from "../pipe-bedrock-event-stream.js";
import { ConverseResponsesBuilder } from "./converse-responses-builder.js";

type ResponseStreamEvent = components["schemas"]["ResponseStreamEvent"];

export interface ConverseStreamToResponsesOptions {
  model: string;
  created: number;
  settings: ResponseSettings;
  now(): number;
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
}

const frame = (event: ResponseStreamEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Converse stream events → the Responses event sequence (ConverseResponsesBuilder). `response.completed` waits for
 * the `metadata` event after `messageStop`, which carries the usage; a stream that ends before `messageStop` ends
 * with an `error` event instead (its sequence number continuing the stream's), as does a failure the pipe sees.
 */
export class ConverseStreamToResponses implements BedrockStreamTransformer {
  private readonly builder: ConverseResponsesBuilder;
  private readonly options: ConverseStreamToResponsesOptions;
  private controller: TransformStreamDefaultController<string> | undefined;
  private sequenceNumber = 0;
  private started = false;
  private stopReason: string | undefined;
  private stopped = false;
  private ended = false;

  constructor(options: ConverseStreamToResponsesOptions) {
    this.options = options;
    this.builder = new ConverseResponsesBuilder({
      model: options.model,
      created: options.created,
      settings: options.settings,
      emit: (event) => {
        this.sequenceNumber = event.sequence_number + 1;
        this.controller?.enqueue(frame(event));
      },
    });
  }

  transform(event: BedrockStreamEvent, controller: TransformStreamDefaultController<string>): void {
    if (this.ended) return;
    this.controller = controller;
    if (!this.started) {
      this.started = true;
      this.builder.start();
    }
    const payload = event.payload;
    switch (event.type) {
      case "contentBlockStart": {
        const toolUse = (payload.start as { toolUse?: { toolUseId?: string; name?: string } } | undefined)?.toolUse;
        if (toolUse?.name) this.builder.startToolUse(toolUse.toolUseId ?? "", toolUse.name);
        return;
      }
      case "contentBlockDelta": {
        const delta = payload.delta as
          | { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string } }
          | undefined;
        if (typeof delta?.text === "string") {
          this.builder.text(delta.text);
          this.options.onText(delta.text);
        } else if (typeof delta?.reasoningContent?.text === "string") {
          this.builder.reasoning(delta.reasoningContent.text);
          this.options.onText(delta.reasoningContent.text);
        } else if (typeof delta?.toolUse?.input === "string") {
          this.builder.toolInput(delta.toolUse.input);
          this.options.onText(delta.toolUse.input);
        }
        return;
      }
      case "contentBlockStop":
        this.builder.close();
        return;
      case "messageStop":
        this.stopped = true;
        this.stopReason = typeof payload.stopReason === "string" ? payload.stopReason : undefined;
        return;
      case "metadata": {
        const { usage } = this.builder.finish(
          this.stopReason,
          payload.usage as ConverseUsage | undefined,
          this.options.now(),
        );
        this.ended = true;
        this.options.onUsage(usage);
        return;
      }
    }
  }

  flush(controller: TransformStreamDefaultController<string>): void {
    if (this.ended) return;
    controller.enqueue(
      this.errorFrame(
        this.stopped
          ? "The upstream stream ended without its usage."
          : "The upstream stream ended before the answer was finished.",
      ),
    );
  }

  /** The `error` event that ends the stream. */
  errorFrame(message: string): string {
    this.ended = true;
    return frame({
      type: "error",
      sequence_number: this.sequenceNumber++,
      code: "upstream_error",
      message,
      param: null,
    } as ResponseStreamEvent);
  }
}

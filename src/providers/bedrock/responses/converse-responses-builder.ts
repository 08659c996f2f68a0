import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { createResponsesIds } from "../../../http/create-responses-ids.js";
import type { ResponseSettings } from "../../../http/echo-response-settings.js";
import { convertConverseUsage } from "../convert-converse-usage.js";
import type { ConverseUsage } from "../converse-types.js";

type ResponseObject = components["schemas"]["ResponseObject"];
type ResponseOutputItem = components["schemas"]["ResponseOutputItem"];
type ResponseOutputMessage = components["schemas"]["ResponseOutputMessage"];
type ResponseOutputReasoning = components["schemas"]["ResponseOutputReasoning"];
type ResponseFunctionCall = Extract<ResponseOutputItem, { type: "function_call" }>;
type ResponseStreamEvent = components["schemas"]["ResponseStreamEvent"];
type ResponseUsage = NonNullable<components["schemas"]["ResponseUsage"]>;

export interface ConverseResponsesOptions {
  /** The model name the client asked for. */
  model: string;
  /** Unix seconds. */
  created: number;
  settings: ResponseSettings;
  /**
   * Receives each Responses stream event as it is made, and must serialise it at once (its items keep growing);
   * absent for a JSON answer, built whole.
   */
  emit?(event: ResponseStreamEvent): void;
}

type OpenItem =
  | { kind: "message"; outputIndex: number; item: ResponseOutputMessage }
  | { kind: "reasoning"; outputIndex: number; item: ResponseOutputReasoning }
  | { kind: "call"; outputIndex: number; item: ResponseFunctionCall };

type Emitted = {
  [Type in ResponseStreamEvent["type"]]: Omit<Extract<ResponseStreamEvent, { type: Type }>, "sequence_number">;
}[ResponseStreamEvent["type"]];

/**
 * Converse output → a Responses object, the same way for an answer and a stream: text becomes a `message` item
 * with one `output_text` part, reasoning a `reasoning` item with one summary part, each tool use a `function_call`
 * item whose call_id is Converse's toolUseId (so the client's function_call_output goes back as its toolResult).
 * With `emit`, each step is also a Responses stream event with its sequence number: `response.created` and
 * `response.in_progress`, per item `output_item.added`, the part's added / delta / done events, `output_item.done`,
 * and `response.completed` (status `incomplete` when the output limit or a filter ended it) with the usage.
 */
export class ConverseResponsesBuilder {
  readonly responseId: string;
  private readonly ids: ReturnType<typeof createResponsesIds>;
  private readonly output: ResponseOutputItem[] = [];
  private open: OpenItem | undefined;
  private sequenceNumber = 0;
  private readonly options: ConverseResponsesOptions;

  constructor(options: ConverseResponsesOptions) {
    this.options = options;
    this.ids = createResponsesIds(undefined);
    this.responseId = this.ids.responseId;
  }

  start(): void {
    const snapshot = this.snapshot({
      status: "in_progress",
      incomplete_details: null,
      completed_at: null,
      usage: null,
    });
    this.send({ type: "response.created", response: { ...snapshot, output: [] } });
    this.send({ type: "response.in_progress", response: { ...snapshot, output: [] } });
  }

  text(text: string): void {
    const open = this.openItem("message");
    if (open.kind !== "message") return;
    open.item.content[0]!.text += text;
    this.send({
      type: "response.output_text.delta",
      item_id: open.item.id,
      output_index: open.outputIndex,
      content_index: 0,
      delta: text,
    });
  }

  reasoning(text: string): void {
    const open = this.openItem("reasoning");
    if (open.kind !== "reasoning") return;
    open.item.summary[0]!.text += text;
    this.send({
      type: "response.reasoning_summary_text.delta",
      item_id: open.item.id,
      output_index: open.outputIndex,
      summary_index: 0,
      delta: text,
    });
  }

  startToolUse(toolUseId: string, name: string): void {
    this.close();
    const outputIndex = this.output.length;
    const item: ResponseFunctionCall = {
      id: this.ids.itemId("fc", outputIndex),
      type: "function_call",
      status: "in_progress",
      call_id: toolUseId,
      name,
      arguments: "",
    };
    this.output.push(item);
    this.open = { kind: "call", outputIndex, item };
    this.send({ type: "response.output_item.added", output_index: outputIndex, item: { ...item } });
  }

  toolInput(json: string): void {
    if (this.open?.kind !== "call") return;
    this.open.item.arguments += json;
    this.send({
      type: "response.function_call_arguments.delta",
      item_id: this.open.item.id,
      output_index: this.open.outputIndex,
      delta: json,
    });
  }

  /** Ends the open item (a content block ended). */
  close(): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    open.item.status = "completed";
    const { outputIndex } = open;
    if (open.kind === "message") {
      const part = open.item.content[0]!;
      const common = { item_id: open.item.id, output_index: outputIndex, content_index: 0 };
      this.send({ type: "response.output_text.done", ...common, text: part.text });
      this.send({ type: "response.content_part.done", ...common, part });
    } else if (open.kind === "reasoning") {
      const part = open.item.summary[0]!;
      const common = { item_id: open.item.id, output_index: outputIndex, summary_index: 0 };
      this.send({ type: "response.reasoning_summary_text.done", ...common, text: part.text });
      this.send({ type: "response.reasoning_summary_part.done", ...common, part });
    } else {
      this.send({
        type: "response.function_call_arguments.done",
        item_id: open.item.id,
        output_index: outputIndex,
        arguments: open.item.arguments,
      });
    }
    this.send({ type: "response.output_item.done", output_index: outputIndex, item: open.item });
  }

  /** The finished response and its usage; with `emit`, `response.completed` goes out with it. */
  finish(
    stopReason: string | undefined,
    converseUsage: ConverseUsage | undefined,
    completedAt: number,
  ): { response: ResponseObject; usage: MeteredUsage } {
    this.close();
    const { metered, chat } = convertConverseUsage(converseUsage);
    const usage: ResponseUsage = {
      input_tokens: chat.prompt_tokens,
      output_tokens: chat.completion_tokens,
      total_tokens: chat.total_tokens,
      input_tokens_details: { cached_tokens: metered.cachedTokens },
      output_tokens_details: { reasoning_tokens: 0 },
    };
    const reason = incompleteReason(stopReason);
    const response = this.snapshot(
      reason === undefined
        ? { status: "completed", incomplete_details: null, completed_at: completedAt, usage }
        : { status: "incomplete", incomplete_details: { reason }, completed_at: null, usage },
    );
    this.send({ type: "response.completed", response });
    return { response, usage: metered };
  }

  private snapshot(
    fields: Pick<ResponseObject, "status" | "incomplete_details" | "usage"> & { completed_at: number | null },
  ): ResponseObject {
    return {
      id: this.responseId,
      object: "response",
      created_at: this.options.created,
      status: fields.status,
      completed_at: fields.completed_at,
      incomplete_details: fields.incomplete_details,
      model: this.options.model,
      output: this.output,
      ...this.options.settings,
      usage: fields.usage,
    };
  }

  private openItem(kind: "message" | "reasoning"): OpenItem {
    if (this.open?.kind === kind) return this.open;
    this.close();
    const outputIndex = this.output.length;
    if (kind === "message") {
      const item: ResponseOutputMessage = {
        id: this.ids.itemId("msg", outputIndex),
        type: "message",
        status: "in_progress",
        role: "assistant",
        content: [],
      };
      this.output.push(item);
      this.send({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, content: [] } });
      const part = { type: "output_text" as const, text: "", annotations: [], logprobs: [] };
      item.content.push(part);
      this.send({
        type: "response.content_part.added",
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        part: { ...part },
      });
      this.open = { kind, outputIndex, item };
    } else {
      const item: ResponseOutputReasoning = {
        id: this.ids.itemId("rs", outputIndex),
        type: "reasoning",
        summary: [],
        status: "in_progress",
      };
      this.output.push(item);
      this.send({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, summary: [] } });
      const part = { type: "summary_text" as const, text: "" };
      item.summary.push(part);
      this.send({
        type: "response.reasoning_summary_part.added",
        item_id: item.id,
        output_index: outputIndex,
        summary_index: 0,
        part: { ...part },
      });
      this.open = { kind, outputIndex, item };
    }
    return this.open;
  }

  private send(event: Emitted): void {
    if (!this.options.emit) return;
    this.options.emit({ ...event, sequence_number: this.sequenceNumber++ } as ResponseStreamEvent);
  }
}

/** Why a Converse answer is incomplete in Responses' words, or undefined when it is complete. */
function incompleteReason(stopReason: string | undefined): string | undefined {
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_output_tokens";
    case "guardrail_intervened":
    case "content_filtered":
      return "content_filter";
    default:
      return undefined;
  }
}

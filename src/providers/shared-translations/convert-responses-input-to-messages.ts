import type { components } from "../../../generated/types/openai.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { createThoughtSignatureExtraContent, readReasoningItemSignature } from "./thought-signatures.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];
type ResponseInputContent = components["schemas"]["ResponseInputContent"];
type ChatMessage = components["schemas"]["ChatCompletionRequestMessage"];
type ChatContentPart = components["schemas"]["ChatCompletionContentPart"];
type ChatToolCall = components["schemas"]["ChatCompletionMessageToolCall"];

/**
 * Responses `instructions` + `input` → chat messages, so the native family has one request translator
 * (convertChatRequestToNative) for both doors.
 * - A string input is one user message; `instructions` comes first as a system message.
 * - Typed parts map one to one: input_text/output_text → text, input_image → image_url, input_file → file.
 * - function_call items become tool_calls of an assistant message: consecutive calls (a parallel set), and calls right
 *   after the assistant message of the same answer, join that message, as the native API wants one model turn.
 *   The call_id is the tool call id, so a thought signature it carries reaches its functionCall part.
 * - function_call_output items become tool messages answering the call_id.
 * - reasoning items sent back are not replayed (thinking text has no place in native contents; `warnings` says so),
 *   except for the thought signature this gateway put in `encrypted_content` (createSignatureReasoningItem): it
 *   becomes the `extra_content` of the assistant message of the same model turn (the one before it, or else the
 *   next one before the turn ends), which puts it back on that message's last text part.
 */
export function convertResponsesInputToMessages(request: ResponsesRequest, warnings: string[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof request.instructions === "string" && request.instructions !== "")
    messages.push({ role: "system", content: request.instructions });
  if (typeof request.input === "string") {
    messages.push({ role: "user", content: request.input });
    return messages;
  }
  let reportedReasoning = false;
  let pendingSignature: { signature: string; path: string } | undefined;
  const pushMessage = (message: ChatMessage) => {
    if (pendingSignature !== undefined && message.role === "assistant") {
      message.extra_content = createThoughtSignatureExtraContent(pendingSignature.signature);
    } else if (pendingSignature !== undefined) {
      warnings.push(`${pendingSignature.path} signs no assistant message of its turn; its signature was dropped.`);
    }
    pendingSignature = undefined;
    messages.push(message);
  };
  for (const [index, item] of request.input.entries()) {
    const path = `input[${index}]`;
    if ("type" in item && item.type === "reasoning") {
      const reasoning = item as components["schemas"]["ResponseInputReasoning"];
      const carried = readReasoningItemSignature(reasoning.encrypted_content);
      const hasSummary = (reasoning.summary ?? []).some(
        (part) => typeof part.text === "string" && (part.text as string) !== "",
      );
      if ((hasSummary || carried === undefined) && !reportedReasoning) {
        warnings.push("Reasoning summaries in input are not sent to the native API.");
        reportedReasoning = true;
      }
      if (carried !== undefined && "foreign" in carried)
        warnings.push(`${path}.encrypted_content did not come from a native channel and was not sent.`);
      if (carried !== undefined && "signature" in carried) {
        const last = messages.at(-1);
        if (last?.role === "assistant") last.extra_content = createThoughtSignatureExtraContent(carried.signature);
        else pendingSignature = { signature: carried.signature, path };
      }
      continue;
    }
    if ("type" in item && item.type === "function_call") {
      const call = item as components["schemas"]["ResponseInputFunctionCall"];
      const toolCall: ChatToolCall = {
        id: call.call_id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      };
      const last = messages.at(-1);
      if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), toolCall];
      else pushMessage({ role: "assistant", content: null, tool_calls: [toolCall] });
      continue;
    }
    if ("type" in item && item.type === "function_call_output") {
      const output = item as components["schemas"]["ResponseInputFunctionCallOutput"];
      pushMessage({ role: "tool", tool_call_id: output.call_id, content: output.output });
      continue;
    }
    const message = item as components["schemas"]["ResponseInputMessage"];
    if (message.role === "assistant") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content.map((part, partIndex) => readText(part, `${path}.content[${partIndex}]`)).join("");
      pushMessage({ role: "assistant", content: text });
      continue;
    }
    if (message.role === "system" || message.role === "developer") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content.map((part, partIndex) => readText(part, `${path}.content[${partIndex}]`)).join("\n");
      pushMessage({ role: message.role, content: text });
      continue;
    }
    pushMessage({
      role: "user",
      content:
        typeof message.content === "string"
          ? message.content
          : message.content.map((part, partIndex) => convertPart(part, `${path}.content[${partIndex}]`)),
    });
  }
  if (pendingSignature !== undefined)
    warnings.push(`${pendingSignature.path} signs no assistant message of its turn; its signature was dropped.`);
  return messages;
}

function convertPart(part: ResponseInputContent, path: string): ChatContentPart {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return { type: "text", text: part.text };
    case "input_image": {
      if (typeof part.image_url !== "string" || part.image_url === "") throw unsupportedFileId(part.file_id, path);
      return {
        type: "image_url",
        image_url: part.detail === undefined ? { url: part.image_url } : { url: part.image_url, detail: part.detail },
      };
    }
    case "input_file": {
      if (typeof part.file_data !== "string" || part.file_data === "") throw unsupportedFileId(part.file_id, path);
      return {
        type: "file",
        file:
          part.filename === undefined
            ? { file_data: part.file_data }
            : { file_data: part.file_data, filename: part.filename },
      };
    }
    default:
      throw new InvalidRequestError(
        `${path}.type "${(part as { type: string }).type}" is not supported for this model.`,
        {
          param: `${path}.type`,
        },
      );
  }
}

/** Text of a part in a message that can only hold text (assistant, system, developer). */
function readText(part: ResponseInputContent, path: string): string {
  if (part.type === "input_text" || part.type === "output_text") return part.text;
  throw new InvalidRequestError(`${path}.type "${part.type}" is only allowed in user messages.`, {
    param: `${path}.type`,
  });
}

function unsupportedFileId(fileId: string | null | undefined, path: string): InvalidRequestError {
  return typeof fileId === "string" && fileId !== ""
    ? new InvalidRequestError(`${path}.file_id is not supported for this model; send the content inline.`, {
        param: `${path}.file_id`,
      })
    : new InvalidRequestError(`${path} has no content.`, { param: path });
}

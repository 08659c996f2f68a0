import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { convertChatContentPart } from "./convert-chat-content-part.js";
import { extractMarkdownDataImages } from "./extract-markdown-data-images.js";
import { readThoughtSignatureExtraContent, splitToolCallId } from "../../shared-translations/thought-signatures.js";

type ChatMessage = OpenaiComponents["schemas"]["ChatCompletionRequestMessage"];
type Content = NativeComponents["schemas"]["Content"];
type Part = NativeComponents["schemas"]["Part"];
type SystemInstruction = NativeComponents["schemas"]["SystemInstruction"];

export interface ConvertedMessages {
  contents: Content[];
  systemInstruction?: SystemInstruction;
}

export interface MessageConversionOptions {
  fetchMedia: FetchMedia;
  warnings: string[];
}

/**
 * OpenAI messages → native contents plus one systemInstruction.
 * - system and developer messages, wherever they stand, are joined into systemInstruction (one text part per text,
 *   in order); a system message after the conversation started loses its position, which is reported.
 * - assistant → role `model`; tool_calls → functionCall parts (with the call id, so the native answer can echo it).
 *   Thought signatures come back where the answer had them: a call's on its functionCall part (from the call id, or
 *   the call's `extra_content`), the text's (`extra_content.google.thought_signature`) on the last text part.
 * - tool → a functionResponse whose name is looked up from the earlier assistant tool_call with that id; function
 *   (legacy) → a functionResponse named by the message. Consecutive results go into one `user` turn, because the
 *   native API pairs one turn of calls with one turn of responses.
 * - Tool output that is a JSON object is sent as the response object; anything else is wrapped as `{result: ...}`.
 * - A conversation of system messages only (which OpenAI accepts) is sent as a user turn: the native API needs contents.
 */
export async function convertChatMessagesToContents(
  messages: readonly ChatMessage[],
  options: MessageConversionOptions,
): Promise<ConvertedMessages> {
  const { warnings } = options;
  const contents: Content[] = [];
  const systemParts: Part[] = [];
  const functionNamesByCallId = new Map<string, string>();
  let reportedName = false;

  for (const [index, message] of messages.entries()) {
    const path = `messages[${index}]`;
    if ("name" in message && typeof message.name === "string" && message.role !== "function" && !reportedName) {
      warnings.push("Message name fields have no native equivalent and were dropped.");
      reportedName = true;
    }
    switch (message.role) {
      case "system":
      case "developer": {
        if (contents.length > 0)
          warnings.push(
            `${path} (${message.role}) was moved into systemInstruction; its position in the conversation is lost.`,
          );
        const texts =
          typeof message.content === "string" ? [message.content] : message.content.map((part) => part.text);
        systemParts.push(...texts.map((text) => ({ text })));
        break;
      }
      case "user": {
        const parts =
          typeof message.content === "string"
            ? extractMarkdownDataImages(message.content, warnings)
            : await convertParts(message.content, path, options);
        contents.push({ role: "user", parts });
        break;
      }
      case "assistant": {
        const parts: Part[] = [];
        if (typeof message.content === "string") parts.push(...extractMarkdownDataImages(message.content, warnings));
        else if (Array.isArray(message.content)) parts.push(...(await convertParts(message.content, path, options)));
        if (typeof message.refusal === "string" && message.refusal !== "") parts.push({ text: message.refusal });
        const textSignature = readThoughtSignatureExtraContent(message.extra_content);
        // The signature of the answer's text goes back on its last text part (answers sign their final part); an
        // answer without text had it on an empty text part, which closes the turn.
        const signedText = parts.findLast((part) => typeof part.text === "string" && part.text !== "");
        if (textSignature !== undefined && signedText !== undefined) signedText.thoughtSignature = textSignature;
        for (const [callIndex, call] of (message.tool_calls ?? []).entries()) {
          functionNamesByCallId.set(call.id, call.function.name);
          // A thought signature the id carried goes back on the same functionCall part, as the upstream requires;
          // Google's compatibility layer carries it in the call's extra_content instead, accepted as well.
          const split = splitToolCallId(call.id);
          const { id } = split;
          const thoughtSignature = split.thoughtSignature ?? readThoughtSignatureExtraContent(call.extra_content);
          const part: Part = {
            functionCall: {
              id,
              name: call.function.name,
              args: parseArguments(call.function.arguments, `${path}.tool_calls[${callIndex}]`, warnings),
            },
          };
          if (thoughtSignature !== undefined) part.thoughtSignature = thoughtSignature;
          parts.push(part);
        }
        if (message.function_call) {
          parts.push({
            functionCall: {
              name: message.function_call.name,
              args: parseArguments(message.function_call.arguments, `${path}.function_call`, warnings),
            },
          });
        }
        if (textSignature !== undefined && signedText === undefined)
          parts.push({ text: "", thoughtSignature: textSignature });
        // An empty text beside tool calls ("content": "") is how many clients say "no text"; the native API refuses
        // empty text parts, except the signed one it produced itself.
        const nonEmpty = parts.filter((part) => part.text !== "" || part.thoughtSignature !== undefined);
        if (nonEmpty.length === 0) {
          warnings.push(`${path} (assistant) had no content and no tool calls and was skipped.`);
          break;
        }
        contents.push({ role: "model", parts: nonEmpty });
        break;
      }
      case "tool": {
        const name = functionNamesByCallId.get(message.tool_call_id);
        if (name === undefined) {
          throw new InvalidRequestError(
            `${path}.tool_call_id "${message.tool_call_id}" does not match the id of any earlier assistant tool_calls entry.`,
            {
              param: `${path}.tool_call_id`,
            },
          );
        }
        const text =
          typeof message.content === "string" ? message.content : message.content.map((part) => part.text).join("");
        appendFunctionResponse(contents, {
          id: splitToolCallId(message.tool_call_id).id,
          name,
          response: toResponseObject(text),
        });
        break;
      }
      case "function":
        appendFunctionResponse(contents, { name: message.name, response: toResponseObject(message.content ?? "") });
        break;
      default:
        throw new InvalidRequestError(`${path}.role "${(message as { role: string }).role}" is not supported.`, {
          param: `${path}.role`,
        });
    }
  }

  if (contents.length === 0 && systemParts.length > 0) {
    warnings.push("The request had only system messages; they were sent as the user turn.");
    return { contents: [{ role: "user", parts: systemParts }] };
  }
  if (contents.length === 0)
    throw new InvalidRequestError("messages must contain at least one message.", { param: "messages" });
  return systemParts.length > 0 ? { contents, systemInstruction: { parts: systemParts } } : { contents };
}

async function convertParts(
  parts: Parameters<typeof convertChatContentPart>[0][],
  path: string,
  options: MessageConversionOptions,
): Promise<Part[]> {
  // Downloads of one message run side by side; their order in the message is kept.
  const converted = await Promise.all(
    parts.map((part, partIndex) =>
      convertChatContentPart(part, {
        fetchMedia: options.fetchMedia,
        warnings: options.warnings,
        path: `${path}.content[${partIndex}]`,
      }),
    ),
  );
  return converted.flat();
}

/** Models sometimes emit arguments that are not JSON and clients echo them back; keep the text rather than fail the turn. */
function parseArguments(text: string, path: string, warnings: string[]): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // fall through to the wrapped form
  }
  warnings.push(`${path}.function.arguments is not a JSON object; it was sent as {"arguments": <text>}.`);
  return { arguments: text };
}

function toResponseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : { result: parsed };
  } catch {
    return { result: text };
  }
}

function appendFunctionResponse(
  contents: Content[],
  functionResponse: NativeComponents["schemas"]["FunctionResponse"],
): void {
  const last = contents.at(-1);
  if (
    last !== undefined &&
    last.role === "user" &&
    last.parts.length > 0 &&
    last.parts.every((part) => part.functionResponse !== undefined)
  ) {
    last.parts.push({ functionResponse });
    return;
  }
  contents.push({ role: "user", parts: [{ functionResponse }] });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

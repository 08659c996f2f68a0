import type { IdSequence } from "../shared/create-id-sequence.js";
import { splitIntoPieces } from "../shared/split-into-pieces.js";
import { splitWords } from "../shared/split-words.js";
import type { PromptCount } from "./count-prompt-tokens.js";
import type { FakeContentBlock, FakeMessageRequest, FakeTool, FakeUsage } from "./fake-anthropic-types.js";
import { signThinking } from "./sign-thinking.js";

export type PlannedBlock =
  | { type: "thinking"; pieces: string[]; signature: string }
  | { type: "text"; pieces: string[] }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; pieces: string[] };

export interface MessageReplyPlan {
  id: string;
  blocks: PlannedBlock[];
  stopReason: "end_turn" | "max_tokens" | "stop_sequence" | "tool_use";
  stopSequence: string | null;
  usage: FakeUsage;
  /** `[fail-midstream]` in the user's text: the stream sends an `error` event after its first text delta. */
  failMidStream: boolean;
}

const scriptedTool = /\[tool:([A-Za-z0-9_-]+) (\{.*?\})\]/;

/**
 * Decides the whole answer once, so the JSON answer and the stream say the same thing. An output "token" is one
 * word piece: thinking first (`Thinking about: <subject>`, when thinking is on), then either a tool call or text
 * (`Echo: <last user words>`, or `Tool result: <results>` after tool results). A tool is called when the last user
 * turn holds no tool result and either its text scripts one (`[tool:Name {"json": "input"}]`) or tools are
 * offered and `tool_choice` is not `none` (the named tool, else the first custom one, its first required string
 * property given the user's text). `max_tokens` cuts thinking first, then the rest.
 */
export function planMessageReply(
  request: FakeMessageRequest,
  prompt: PromptCount,
  cacheRead: boolean,
  ids: IdSequence,
): MessageReplyPlan {
  const lastUser = [...request.messages].reverse().find((message) => message.role === "user");
  const blocks =
    typeof lastUser?.content === "string" ? [{ type: "text", text: lastUser.content }] : (lastUser?.content ?? []);
  const userText = splitWords(
    blocks
      .filter((block): block is FakeContentBlock => block.type === "text")
      .map((block) => block.text ?? "")
      .join(" "),
  ).join(" ");
  const results = blocks.filter((block) => block.type === "tool_result");
  const resultText = splitWords(results.map((block) => readResultText(block)).join(" ")).join(" ");
  const subject = results.length > 0 ? resultText : userText;

  const planned: PlannedBlock[] = [];
  const thinkingOn = request.thinking?.type === "enabled" || request.thinking?.type === "adaptive";
  if (thinkingOn) {
    const thinking = `Thinking about: ${subject}`.trim();
    planned.push({ type: "thinking", pieces: splitIntoPieces(thinking), signature: signThinking(thinking) });
  }
  const tool = results.length === 0 ? chooseToolCall(request, userText) : undefined;
  if (tool) {
    // A forced tool (`any`, `tool`) is prefilled by Anthropic: the answer opens with the call, no text before it.
    const forced = request.tool_choice?.type === "any" || request.tool_choice?.type === "tool";
    if (!forced) planned.push({ type: "text", pieces: splitIntoPieces(`Calling ${tool.name}.`) });
    const json = JSON.stringify(tool.input);
    planned.push({
      type: "tool_use",
      id: ids.next("toolu_fake"),
      ...tool,
      pieces: splitIntoPieces(json.replaceAll(",", ", ")),
    });
  } else {
    planned.push({
      type: "text",
      pieces: splitIntoPieces(results.length > 0 ? `Tool result: ${resultText}` : `Echo: ${userText}`),
    });
  }

  let stopReason: MessageReplyPlan["stopReason"] = tool ? "tool_use" : "end_turn";
  let stopSequence: string | null = null;
  const textBlock = planned.find((block) => block.type === "text");
  if (textBlock && !tool) {
    const text = textBlock.pieces.join("");
    for (const sequence of request.stop_sequences ?? []) {
      const at = text.indexOf(sequence);
      if (sequence !== "" && at >= 0) {
        textBlock.pieces = splitIntoPieces(text.slice(0, at).trimEnd());
        stopReason = "stop_sequence";
        stopSequence = sequence;
        break;
      }
    }
  }

  let budget = request.max_tokens;
  const kept: PlannedBlock[] = [];
  for (const block of planned) {
    if (budget <= 0) {
      stopReason = "max_tokens";
      break;
    }
    if (block.pieces.length > budget) {
      stopReason = "max_tokens";
      // A tool call cut short is left out: its input would not be valid JSON.
      if (block.type !== "tool_use") kept.push({ ...block, pieces: block.pieces.slice(0, budget) });
      budget = 0;
      break;
    }
    kept.push(block);
    budget -= block.pieces.length;
  }
  const outputTokens = kept.reduce((sum, block) => sum + block.pieces.length, 0);
  const cached = prompt.cacheablePrefix;
  return {
    id: ids.next("msg_fake"),
    blocks: kept,
    stopReason,
    stopSequence,
    usage: {
      input_tokens: prompt.total - cached,
      output_tokens: outputTokens,
      cache_creation_input_tokens: cacheRead ? 0 : cached,
      cache_read_input_tokens: cacheRead ? cached : 0,
    },
    failMidStream: userText.includes("[fail-midstream]"),
  };
}

function readResultText(block: FakeContentBlock): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? [])
    .map((inner) => (inner.type === "text" ? (inner.text ?? "") : `[${inner.type}]`))
    .join(" ");
}

function chooseToolCall(
  request: FakeMessageRequest,
  userText: string,
): { name: string; input: Record<string, unknown> } | undefined {
  const tools = request.tools ?? [];
  const scripted = scriptedTool.exec(userText);
  if (scripted && tools.some((tool) => tool.name === scripted[1])) {
    try {
      return { name: scripted[1]!, input: JSON.parse(scripted[2]!) as Record<string, unknown> };
    } catch {
      // not JSON: fall back to the default choice
    }
  }
  if (tools.length === 0 || request.tool_choice?.type === "none") return undefined;
  const custom = tools.filter((tool) => tool.type === undefined || tool.type === "custom");
  const named =
    request.tool_choice?.type === "tool" ? custom.find((tool) => tool.name === request.tool_choice?.name) : undefined;
  const tool = named ?? custom[0];
  if (!tool) return undefined;
  return { name: tool.name, input: createToolInput(tool, userText) };
}

function createToolInput(tool: FakeTool, userText: string): Record<string, unknown> {
  const properties = tool.input_schema?.properties ?? {};
  const stringProperties = Object.keys(properties).filter((name) => properties[name]?.type === "string");
  const target = stringProperties.find((name) => tool.input_schema?.required?.includes(name)) ?? stringProperties[0];
  return target === undefined ? {} : { [target]: userText };
}

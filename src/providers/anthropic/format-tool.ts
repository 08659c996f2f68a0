import { InvalidRequestError } from "../../errors/gateway-error.js";

type Block = Record<string, unknown>;

/** The tool a `json_object` format becomes (a `json_schema` format's tool is named after its schema). */
export const jsonObjectToolName = "json_object";

/** A JSON answer format as both OpenAI doors name it: chat's `response_format`, Responses' `text.format`. */
export type JsonAnswerFormat =
  | { type: "json_object" }
  | { type: "json_schema"; name: string; description?: string | undefined; schema?: unknown };

/**
 * Claude has no answer formats: a JSON format becomes a tool Claude is made to call, named after its schema, whose
 * input is the answer. This is that tool.
 */
export function createFormatTool(format: JsonAnswerFormat): Block {
  if (format.type === "json_object")
    return {
      name: jsonObjectToolName,
      description: "Answer with a JSON object.",
      input_schema: { type: "object", additionalProperties: true },
    };
  return {
    name: format.name,
    description: format.description ?? `Answer with JSON that follows the ${format.name} schema.`,
    input_schema: format.schema ?? { type: "object", additionalProperties: true },
  };
}

export interface FormatToolPlacement {
  /** The client's own function tools, already in Claude's form. */
  ownToolNames: readonly string[];
  /** The client's tool choice allows no tool (`none`). */
  ownToolsOff: boolean;
  /** The client named the tool to call. */
  namedTool: boolean;
  /** The client asked for one tool call at a time. */
  oneCallAtATime: boolean;
  /** Where the format was given, for the error that names it. */
  param: string;
}

/**
 * Puts the format's tool into Claude's body: Claude must answer in the format by calling its tool, or (with tools
 * of the client's own, as OpenAI's models may) one of those, unless the client named the tool to call.
 */
export function placeFormatTool(body: Block, format: Block, placement: FormatToolPlacement): void {
  if (placement.ownToolNames.includes(format.name as string))
    throw new InvalidRequestError(
      `${placement.param}: the format's name "${String(format.name)}" is also the name of a tool; rename one of them.`,
      { param: placement.param },
    );
  const offersOwnTools = placement.ownToolNames.length > 0 && !placement.ownToolsOff;
  if (!(offersOwnTools && placement.namedTool))
    body.tool_choice = offersOwnTools ? { type: "any" } : { type: "tool", name: format.name };
  body.tools = offersOwnTools ? [...((body.tools as Block[] | undefined) ?? []), format] : [format];
  if (placement.oneCallAtATime) (body.tool_choice as Block).disable_parallel_tool_use = true;
}

/** Claude refuses a forced tool while it thinks, so a format and thinking cannot go together. */
export function refuseFormatWhileThinking(param: string, thinkingSwitches: string): InvalidRequestError {
  return new InvalidRequestError(
    `${param}: a Claude channel cannot be made to answer in a format while it thinks; turn thinking off (${thinkingSwitches}) or leave ${param} out.`,
    { param },
  );
}

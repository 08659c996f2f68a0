import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";

type ToolChoice = OpenaiComponents["schemas"]["ChatCompletionToolChoiceOption"];
type ToolConfig = NativeComponents["schemas"]["ToolConfig"];

/** tool_choice → toolConfig.functionCallingConfig: auto → AUTO, none → NONE, required → ANY, a named function → ANY restricted to it. */
export function convertToolChoice(toolChoice: ToolChoice | undefined): ToolConfig | undefined {
  switch (toolChoice) {
    case undefined:
      return undefined;
    case "auto":
      return { functionCallingConfig: { mode: "AUTO" } };
    case "none":
      return { functionCallingConfig: { mode: "NONE" } };
    case "required":
      return { functionCallingConfig: { mode: "ANY" } };
    default:
      return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [toolChoice.function.name] } };
  }
}

import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { cleanNativeSchema } from "./clean-native-schema.js";

type ChatTool = OpenaiComponents["schemas"]["ChatCompletionTool"];
type Tool = NativeComponents["schemas"]["Tool"];
type FunctionDeclaration = NativeComponents["schemas"]["FunctionDeclaration"];

/** Function names that switch on a built-in native tool instead of declaring a function. */
const reservedToolNames = new Set(["nativeSearch", "codeExecution", "urlContext"]);

/**
 * tools → native tools: every ordinary function goes into one `functionDeclarations` element (first), each reserved
 * name becomes its own built-in tool element (`{nativeSearch: {}}` ...), as the native API wants one kind per element.
 * Parameters are cleaned to the native schema dialect. An object schema without properties is left out, because the
 * native API refuses an OBJECT with empty properties while a function without parameters means the same thing.
 */
export function convertChatTools(tools: readonly ChatTool[] | undefined, warnings: string[]): Tool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  const declarations: FunctionDeclaration[] = [];
  const builtIns: Tool[] = [];
  for (const [index, tool] of tools.entries()) {
    if (tool.type !== "function") {
      throw new InvalidRequestError(
        `tools[${index}].type "${String(tool.type)}" is not supported; only function tools are.`,
        { param: `tools[${index}].type` },
      );
    }
    const { name, description, parameters } = tool.function;
    if (reservedToolNames.has(name)) {
      if (!builtIns.some((builtIn) => name in builtIn)) builtIns.push({ [name]: {} } as Tool);
      continue;
    }
    const declaration: FunctionDeclaration = { name };
    if (description !== undefined) declaration.description = description;
    if (parameters !== undefined && !isEmptyObjectSchema(parameters)) {
      declaration.parameters = cleanNativeSchema(parameters, {
        context: `tools[${index}].function.parameters`,
        warnings,
      });
    }
    declarations.push(declaration);
  }
  return declarations.length > 0 ? [{ functionDeclarations: declarations }, ...builtIns] : builtIns;
}

function isEmptyObjectSchema(schema: Record<string, unknown>): boolean {
  const properties = schema.properties;
  const hasProperties = typeof properties === "object" && properties !== null && Object.keys(properties).length > 0;
  return !hasProperties && (schema.type === undefined || schema.type === "object");
}

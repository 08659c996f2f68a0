import type { ChatTool } from "./chat-request.js";

/**
 * Arguments for the fake's tool call: the user's text in the tool's first required string parameter
 * (else its first string parameter), or `{}` when it declares none.
 */
export function createToolArguments(tool: ChatTool, text: string): string {
  const parameters = tool.function.parameters ?? {};
  const properties = (parameters.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(parameters.required) ? (parameters.required as string[]) : [];
  const stringNames = Object.keys(properties).filter((name) => properties[name]?.type === "string");
  const chosen = stringNames.find((name) => required.includes(name)) ?? stringNames[0];
  return chosen === undefined ? "{}" : JSON.stringify({ [chosen]: text });
}

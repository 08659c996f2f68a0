import type { NativeContent, NativePart } from "./native-request-types.js";

/** The text of the last user turn of `contents` (thoughts left out): what the fake model answers to. */
export function readLastUserText(contents: readonly NativeContent[]): string {
  for (let index = contents.length - 1; index >= 0; index -= 1) {
    const content = contents[index]!;
    if (content.role === undefined || content.role === "user" || content.role === "function")
      return (content.parts as NativePart[])
        .filter((part) => typeof part.text === "string" && part.thought !== true)
        .map((part) => String(part.text))
        .join(" ")
        .trim();
  }
  return "";
}

import type { components as NativeComponents } from "../../../../generated/types/native.js";
import { nativeMediaMimeTypes } from "../shared/native-media-mime-types.js";
import { parseDataUri } from "../../../net/parse-data-uri.js";

type Part = NativeComponents["schemas"]["Part"];

const markdownDataImagePattern = /!\[[^\]\n]*\]\((data:[^)\s]+)\)/g;

/**
 * Splits text at markdown images whose target is a base64 data URI (`![alt](data:image/png;base64,...)`) and turns
 * each into an inlineData part, keeping the surrounding text as text parts in order. This is how the gateway's own
 * chat answers embed generated images, so a client that sends the conversation back gives the model the real image
 * instead of a megabyte of base64 text. An image whose type is outside the allow-list, or whose URI does not parse,
 * stays in the text untouched (it is still valid text) and is reported.
 */
export function extractMarkdownDataImages(text: string, warnings: string[]): Part[] {
  const parts: Part[] = [];
  let textStart = 0;
  for (const match of text.matchAll(markdownDataImagePattern)) {
    const parsed = parseDataUri(match[1] ?? "");
    if (parsed === undefined || !nativeMediaMimeTypes.has(parsed.mimeType)) {
      warnings.push(`A markdown data image of type ${parsed?.mimeType ?? "(unreadable)"} was left as text.`);
      continue;
    }
    const before = text.slice(textStart, match.index);
    if (before.trim() !== "") parts.push({ text: before });
    parts.push({ inlineData: { mimeType: parsed.mimeType, data: parsed.data } });
    textStart = match.index + match[0].length;
  }
  const rest = text.slice(textStart);
  // A text with no image at all stays one part even when empty, so a message never loses its only part.
  if (rest.trim() !== "" || parts.length === 0) parts.push({ text: textStart === 0 ? text : rest });
  return parts;
}

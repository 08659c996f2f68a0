/** The text of a message content: a string, or the text of `text` / `input_text` / `output_text` parts joined by spaces. */
export function extractTextContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (typeof part !== "object" || part === null) return "";
      const typed = part as { type?: unknown; text?: unknown };
      const isText = typed.type === "text" || typed.type === "input_text" || typed.type === "output_text";
      return isText && typeof typed.text === "string" ? typed.text : "";
    })
    .filter((text) => text.length > 0)
    .join(" ");
}

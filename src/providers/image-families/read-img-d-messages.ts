import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageReference } from "./read-image-references.js";

/** The prompt text and the input images of an `img-d-` request's input.messages. */
export interface ImgDMessages {
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
  text: string;
  images: ImageReference[];
}

/** Reads input.messages (required for the family: the images API's documented 400 `invalid_request` without it). */
export function readImgDMessages(body: Record<string, unknown>, model: string): ImgDMessages {
  const messages = (body.input as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new InvalidRequestError(
      `input.messages is required for ${model}: [{role: "user", content: [{text}, {image}]}].`,
      { param: "input.messages" },
    );
  const texts: string[] = [];
  const images: ImageReference[] = [];
  messages.forEach((message, messageIndex) => {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) return;
    content.forEach((part, partIndex) => {
      const item = part as Record<string, unknown>;
      if (typeof item.text === "string") texts.push(item.text);
      if (typeof item.image === "string")
        images.push({ value: item.image, param: `input.messages[${messageIndex}].content[${partIndex}].image` });
    });
  });
  return {
    messages: messages as ImgDMessages["messages"],
    text: texts.join("\n"),
    images,
  };
}

import { parseReferenceImage } from "../image-families/parse-reference-image.js";
import { readImgDMessages } from "../image-families/read-img-d-messages.js";
import type { DashscopeImageRequest } from "./dashscope-image-wire.js";

const parameterNames = ["prompt_extend", "negative_prompt", "seed", "watermark", "n", "size"] as const;

/**
 * The client's `img-d-` request (its own fields, checked by the family rules) → a DashScope multimodal generation
 * body for the channel's model: input.messages with each message's image parts before its text (the provider reads
 * images first when editing; raw base64 becomes a data URI), and only the parameters the client chose.
 */
export function convertImageRequestToDashscope(
  body: Record<string, unknown>,
  model: string,
  upstreamModel: string,
): DashscopeImageRequest {
  const { messages } = readImgDMessages(body, model);
  const converted = messages.map((message, messageIndex) => {
    const images: Array<{ image: string }> = [];
    const texts: Array<{ text: string }> = [];
    (Array.isArray(message.content) ? message.content : []).forEach((part, partIndex) => {
      if (typeof part.text === "string") texts.push({ text: part.text });
      if (typeof part.image === "string") {
        const parsed = parseReferenceImage({
          value: part.image,
          param: `input.messages[${messageIndex}].content[${partIndex}].image`,
        });
        images.push({ image: parsed.kind === "url" ? parsed.url : `data:${parsed.mimeType};base64,${parsed.base64}` });
      }
    });
    return { role: typeof message.role === "string" ? message.role : "user", content: [...images, ...texts] };
  });
  const request: DashscopeImageRequest = { model: upstreamModel, input: { messages: converted } };
  const clientParameters = (body.parameters ?? {}) as Record<string, unknown>;
  const parameters: Record<string, unknown> = {};
  for (const name of parameterNames)
    if (clientParameters[name] !== undefined) parameters[name] = clientParameters[name];
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return request;
}

import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { detectMimeTypeFromFilename } from "./detect-mime-type-from-filename.js";
import { extractMarkdownDataImages } from "./extract-markdown-data-images.js";
import { nativeMediaMimeTypes } from "../shared/native-media-mime-types.js";
import { assertInlineDataMatchesType } from "../shared/assert-inline-data-matches-type.js";
import { parseDataUri } from "../../../net/parse-data-uri.js";

type Part = NativeComponents["schemas"]["Part"];
type ContentPart =
  | OpenaiComponents["schemas"]["ChatCompletionContentPart"]
  | OpenaiComponents["schemas"]["ChatCompletionContentPartRefusal"];

export interface ContentPartContext {
  fetchMedia: FetchMedia;
  warnings: string[];
  /** Where the part sits in the request, for error messages: `messages[2].content[1]`. */
  path: string;
}

const audioMimeTypesByFormat = new Map([
  ["wav", "audio/wav"],
  ["mp3", "audio/mp3"],
  ["mpeg", "audio/mpeg"],
]);

/**
 * One OpenAI content part → native parts (several when a text part embeds markdown data images). Media always ends
 * up inline: data URIs are decoded, http(s) URLs are downloaded through the injected (SSRF-safe) fetcher, because the
 * native API cannot be trusted to fetch arbitrary URLs and some upstreams refuse them. Media the native family cannot
 * take is refused with a 400 naming the part, not dropped: a silently missing image changes the answer.
 */
export async function convertChatContentPart(part: ContentPart, context: ContentPartContext): Promise<Part[]> {
  switch (part.type) {
    case "text":
      return extractMarkdownDataImages(part.text, context.warnings);
    case "refusal":
      // An earlier answer's refusal is still what the model said.
      return [{ text: part.refusal }];
    case "image_url": {
      if (part.image_url.detail !== undefined && part.image_url.detail !== "auto") {
        context.warnings.push(
          `${context.path}.image_url.detail "${part.image_url.detail}" has no native equivalent and was ignored.`,
        );
      }
      return [await readMedia(part.image_url.url, `${context.path}.image_url.url`, context)];
    }
    case "input_audio": {
      const format = part.input_audio.format.trim().toLowerCase();
      const mimeType = format.includes("/") ? format : audioMimeTypesByFormat.get(format);
      if (mimeType === undefined || !nativeMediaMimeTypes.has(mimeType)) {
        throw new InvalidRequestError(
          `${context.path}.input_audio.format "${part.input_audio.format}" is not supported; use wav, mp3 or mpeg.`,
          {
            param: `${context.path}.input_audio.format`,
          },
        );
      }
      const parsed = parseDataUri(`data:${mimeType};base64,${part.input_audio.data}`);
      if (parsed === undefined) throw invalidBase64(`${context.path}.input_audio.data`);
      assertInlineDataMatchesType(mimeType, parsed.data, `${context.path}.input_audio.data`);
      return [{ inlineData: { mimeType, data: parsed.data } }];
    }
    case "file":
      return [await readFile(part.file, context)];
    default:
      throw new InvalidRequestError(
        `${context.path}.type "${(part as { type: string }).type}" is not supported for this model.`,
        {
          param: `${context.path}.type`,
        },
      );
  }
}

async function readFile(
  file: OpenaiComponents["schemas"]["ChatCompletionContentPartFile"]["file"],
  context: ContentPartContext,
): Promise<Part> {
  const path = `${context.path}.file`;
  if (typeof file.file_data === "string" && file.file_data !== "") {
    const data = file.file_data.trim();
    if (/^(data|https?):/i.test(data)) return readMedia(data, `${path}.file_data`, context);
    const mimeType = file.filename === undefined ? undefined : detectMimeTypeFromFilename(file.filename);
    if (mimeType === undefined) {
      throw new InvalidRequestError(
        `${path}.file_data is bare base64 and the type cannot be told from filename; send a data: URI.`,
        {
          param: `${path}.file_data`,
        },
      );
    }
    return readMedia(`data:${mimeType};base64,${data}`, `${path}.file_data`, context);
  }
  if (typeof file.file_id === "string") {
    throw new InvalidRequestError(
      `${path}.file_id is not supported for this model (the file lives at another provider); send file_data.`,
      {
        param: `${path}.file_id`,
      },
    );
  }
  throw new InvalidRequestError(`${path} needs file_data.`, { param: path });
}

async function readMedia(url: string, path: string, context: ContentPartContext): Promise<Part> {
  if (/^data:/i.test(url.trim())) {
    const parsed = parseDataUri(url);
    if (parsed === undefined) throw invalidBase64(path);
    requireAllowedType(parsed.mimeType, path);
    assertInlineDataMatchesType(parsed.mimeType, parsed.data, path);
    return { inlineData: { mimeType: parsed.mimeType, data: parsed.data } };
  }
  if (!/^https?:\/\//i.test(url.trim())) {
    throw new InvalidRequestError(`${path} must be an http(s) URL or a data: URI.`, { param: path });
  }
  const media = await context.fetchMedia(url.trim());
  // The production fetcher already enforces the list; checking again keeps an injected fetcher from widening it.
  requireAllowedType(media.mimeType.toLowerCase(), path);
  return { inlineData: { mimeType: media.mimeType.toLowerCase(), data: media.data.toString("base64") } };
}

function requireAllowedType(mimeType: string, path: string): void {
  if (!nativeMediaMimeTypes.has(mimeType)) {
    throw new InvalidRequestError(
      `${path} has media type ${mimeType}, which this model does not accept. Allowed: ${[...nativeMediaMimeTypes].join(", ")}.`,
      {
        param: path,
      },
    );
  }
}

function invalidBase64(path: string): InvalidRequestError {
  return new InvalidRequestError(`${path} is not a valid base64 data URI.`, { param: path });
}

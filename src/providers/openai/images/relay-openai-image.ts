import { FormData } from "undici";
import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequestKeepingBytes } from "../../../upstream/send-upstream-json-request.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import type { ImageCall, UploadedImageFile } from "../../contract/image-call.js";
import { toImageFailure } from "../../image-families/to-image-failure.js";
import { readOpenaiImageError } from "../../image-families/read-openai-image-error.js";
import type { ProviderServices } from "../../contract/provider-services.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { relayOpenaiImgC } from "./relay-openai-img-c.js";

type ImageResponse = components["schemas"]["ImageResponse"];

/**
 * Image generation or editing on an OpenAI-compatible channel. `img-c-2` speaks the OpenAI images API proper
 * (relayOpenaiImgC). Every other family is passed through as the multi-family request it is (an upstream gateway
 * speaking the same API): the client's own fields with the mapped model (a multipart edit rebuilt as a form with its
 * files), the answer back as it is, billed by the images returned (per_image) plus the tokens reported. An answer
 * without an image is 502 `empty_response`; errors follow the image table.
 */
export async function relayOpenaiImage(
  call: ImageCall,
  input: RelayAttemptInput,
  services: ProviderServices,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  if (call.family.name === "img-c") return relayOpenaiImgC(call, input, services, dialect);
  const path = dialect.path(call.kind === "multipart" ? "images/edits" : `images/${call.task}`, input.attempt);
  try {
    const { answer: result, bytes } =
      call.kind === "json"
        ? await sendUpstreamJsonRequestKeepingBytes<ImageResponse>(input.attempt, {
            method: "POST",
            path,
            headers: input.upstreamHeaders(),
            body: JSON.stringify({ ...call.body, model: input.attempt.upstreamModel }),
            signal: input.signal,
          })
        : await sendUpstreamJsonRequestKeepingBytes<ImageResponse>(input.attempt, {
            method: "POST",
            path,
            headers: input.upstreamHeaders({ jsonBody: false }),
            body: buildEditForm(call.body, call.files, input.attempt.upstreamModel),
            signal: input.signal,
          });
    if (!Array.isArray(result.data) || result.data.length === 0)
      throw new UpstreamFailure("The upstream provider returned no image.", false, {
        status: 502,
        code: "empty_response",
      });
    input.observed.usage = readImageUsage(result);
    // The answer goes back as the upstream sent it: its own bytes, not a re-serialisation of a possibly huge parse,
    // unless the dialect has the provider's own fields to take out.
    if (dialect.cleanAnswer) {
      dialect.cleanAnswer(result as unknown as Record<string, unknown>);
      input.deliver(result);
    } else input.deliverBytes("application/json; charset=utf-8", bytes);
  } catch (error) {
    throw toImageFailure(error, { readError: readOpenaiImageError, secrets: input.attempt.channel.keys });
  }
}

function buildEditForm(
  fields: Record<string, unknown>,
  files: readonly UploadedImageFile[],
  upstreamModel: string,
): FormData {
  const fileFields = new Set(files.map((file) => file.fieldname));
  const form = new FormData();
  form.append("model", upstreamModel);
  for (const [name, value] of Object.entries(fields)) {
    // The validator leaves a placeholder under each file part's name to validate the upload; the file goes below.
    if (name !== "model" && !fileFields.has(name) && value !== undefined && value !== null)
      form.append(name, String(value));
  }
  for (const file of files)
    form.append(file.fieldname, new Blob([file.buffer], { type: file.mimetype }), file.originalname);
  return form;
}

function readImageUsage(result: ImageResponse): MeteredUsage {
  const usage = result.usage;
  const metered: MeteredUsage = {
    promptTokens: usage?.input_tokens ?? 0,
    completionTokens: usage?.output_tokens ?? 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    imageCount: result.data.length,
  };
  const imageOutputTokens = usage?.output_tokens_details?.image_tokens;
  if (typeof imageOutputTokens === "number" && imageOutputTokens > 0) metered.imageOutputTokens = imageOutputTokens;
  return metered;
}

import type { Response } from "express";
import { FormData } from "undici";
import type { components } from "../../../generated/types/openai.js";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { withoutInjectedDefaults } from "../../http/client-body-fields.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { sendUpstreamJsonRequest } from "../../relay/send-upstream-json-request.js";
import type { ImageCall, UploadedImageFile } from "../image-call.js";

type ImageResponse = components["schemas"]["ImageResponse"];

/**
 * Image generation or editing on an OpenAI-compatible channel: the client's JSON passes through with the mapped
 * model (a multipart edit is rebuilt as a form with its files), and the upstream's answer goes back as it is. Billed
 * by the images returned (`data.length`, priced per_image) plus the tokens the upstream reports, if it does.
 */
export async function relayOpenaiImage(call: ImageCall, response: Response, input: RelayAttemptInput): Promise<void> {
  const path = `/v1/images/${call.task}`;
  const result =
    call.kind === "json"
      ? await sendUpstreamJsonRequest<ImageResponse>(input.attempt, {
          method: "POST",
          path,
          headers: input.upstreamHeaders(),
          body: JSON.stringify({
            ...withoutInjectedDefaults(call.request, response),
            model: input.attempt.upstreamModel,
          }),
          signal: input.signal,
        })
      : await sendUpstreamJsonRequest<ImageResponse>(input.attempt, {
          method: "POST",
          path,
          headers: input.upstreamHeaders({ jsonBody: false }),
          body: buildEditForm(call.fields, call.files, input.attempt.upstreamModel),
          signal: input.signal,
        });
  input.observed.usage = readImageUsage(result);
  input.deliver(result);
}

function buildEditForm(
  fields: Record<string, string>,
  files: readonly UploadedImageFile[],
  upstreamModel: string,
): FormData {
  const fileFields = new Set(files.map((file) => file.fieldname));
  const form = new FormData();
  form.append("model", upstreamModel);
  for (const [name, value] of Object.entries(fields)) {
    // The validator leaves a placeholder under each file part's name to validate the upload; the file goes below.
    if (name !== "model" && !fileFields.has(name)) form.append(name, value);
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
    imageCount: Array.isArray(result.data) ? result.data.length : 0,
  };
  const imageOutputTokens = usage?.output_tokens_details?.image_tokens;
  if (typeof imageOutputTokens === "number" && imageOutputTokens > 0) metered.imageOutputTokens = imageOutputTokens;
  return metered;
}

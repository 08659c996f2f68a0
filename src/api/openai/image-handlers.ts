import type { Request } from "express";
import type { operations } from "../../../generated/types/openai.js";
import { estimatePromptTokens, MEDIA_PART_TOKENS } from "../../billing/estimate-prompt-tokens.js";
import { InvalidRequestError } from "../../errors/invalid-request-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import type { ImageCall, UploadedImageFile } from "../../providers/image-call.js";
import { unsupportedNativeImageForm } from "../../providers/native/unsupported-native-image-form.js";
import { runRelay } from "../../relay/run-relay.js";

type ImageRequest = JsonRequestBody<operations["createImage"]>;
type ImageTask = "generations" | "edits";

const isNativeImageFamily = (model: string): boolean => model.toLowerCase().startsWith("gmx-");

/**
 * /v1/images/generations and /v1/images/edits. OpenAI-compatible channels get the request as sent (JSON, or the
 * rebuilt multipart form of an edit); native channels get it translated to generateContent, where the two paths
 * behave the same (the presence of `image` decides image-to-image). Multipart and `mask` have no native form.
 */
/**
 * The most images one request can return, for the reservation: native-family models return one; others `n`
 * (default 1), or `sequential_image_generation_options.max_images` for the img-b sequential mode (default 4).
 */
function requestedImageCount(call: ImageCall, model: string): number {
  if (isNativeImageFamily(model)) return 1;
  const fields: Record<string, unknown> =
    call.kind === "json" ? (call.request as Record<string, unknown>) : call.fields;
  const n = Number(fields.n ?? (fields.parameters as { n?: unknown } | undefined)?.n ?? 1);
  const sequential = fields.sequential_image_generation === "auto";
  const maxImages = Number(
    (fields.sequential_image_generation_options as { max_images?: unknown } | undefined)?.max_images ?? 4,
  );
  const count = sequential ? Math.max(n, maxImages) : n;
  return Number.isInteger(count) && count > 0 ? Math.min(count, 10) : 1;
}

export function createImageHandlers(
  context: GatewayContext,
): Record<"createImage" | "createImageEdit", OperationHandler> {
  const relayImage = (task: ImageTask): OperationHandler =>
    async function relayImageRequest(request, response) {
      const isMultipart = typeof request.is("multipart/form-data") === "string";
      const call: ImageCall = isMultipart
        ? { task: "edits", kind: "multipart", ...readEditForm(request) }
        : { task, kind: "json", request: request.body as ImageRequest };
      const model = call.kind === "json" ? call.request.model : (call.fields.model ?? "");
      const hasMask =
        call.kind === "json" ? call.request.mask !== undefined : call.files.some((file) => file.fieldname === "mask");
      if (isNativeImageFamily(model)) {
        if (isMultipart || hasMask) throw unsupportedNativeImageForm(model);
        if (call.kind === "json" && (typeof call.request.prompt !== "string" || call.request.prompt.trim() === "")) {
          throw new InvalidRequestError("prompt is required and must not be empty.", { param: "prompt" });
        }
      }
      await runRelay(context, request, response, {
        capability: "images",
        input: call,
        model,
        isStream: false,
        promptTokenEstimate: estimateImagePromptTokens(call),
        maxOutputTokens: undefined,
        reservedUsage: { imageCount: requestedImageCount(call, model) },
      });
    };
  return { createImage: relayImage("generations"), createImageEdit: relayImage("edits") };
}

/** The multipart form as the validator's uploader left it: text fields in the body, the images in `files`. */
function readEditForm(request: Request): { fields: Record<string, string>; files: UploadedImageFile[] } {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      fields[name] = String(value);
  }
  return { fields, files: (request.files as UploadedImageFile[] | undefined) ?? [] };
}

/** Reference images are held at a media part's worth each, not at their base64 length (raw base64 is no data: URI). */
function estimateImagePromptTokens(call: ImageCall): number {
  if (call.kind === "multipart") return estimatePromptTokens(call.fields) + MEDIA_PART_TOKENS * call.files.length;
  const { image, images, ...rest } = call.request as ImageRequest & { mask?: unknown };
  const references = [image ?? [], images ?? []].flat().length;
  return estimatePromptTokens(rest) + MEDIA_PART_TOKENS * references;
}

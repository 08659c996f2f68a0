import type { Request, Response } from "express";
import { estimatePromptTokens, MEDIA_PART_TOKENS } from "../../billing/estimate-prompt-tokens.js";
import { findModelPrice } from "../../models/find-model-price.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import { withoutInjectedNestedDefaults } from "../../http/without-injected-nested-defaults.js";
import type { UploadedImageFile } from "../../providers/contract/image-call.js";
import type { ImageRequestFields } from "../../providers/contract/image-request-fields.js";
import { readContentsParts } from "../../providers/image-families/read-image-prompt.js";
import { readImageReferences } from "../../providers/image-families/read-image-references.js";
import { resolveImageFamily } from "../../providers/image-families/resolve-image-family.js";
import { runRelay } from "../../relay/run-relay.js";

type ImageTask = "generations" | "edits";
type ImageFields = ImageRequestFields & { files: UploadedImageFile[] };

/**
 * /v1/images/generations and /v1/images/edits: the model's family rules first (every refusal before a channel is
 * chosen or quota held), then one relay over the channels whose adapter serves images; each speaks the family's
 * provider protocol. The reservation holds the most images the request can return; the bill counts those returned.
 */
export function createImageHandlers(
  context: GatewayContext,
): Record<"createImage" | "createImageEdit", OperationHandler> {
  const relayImage = (task: ImageTask): OperationHandler =>
    async function relayImageRequest(request, response) {
      const fields = readImageFields(request, response, task);
      const model = typeof fields.body.model === "string" ? fields.body.model : "";
      const family = resolveImageFamily(model, fields, findModelPrice(context.config.pricing, model));
      await runRelay(context, request, response, {
        capability: "images",
        input: { ...fields, model, family },
        model,
        isStream: false,
        promptTokenEstimate: estimateImagePromptTokens(fields),
        maxOutputTokens: undefined,
        reservedUsage: { imageCount: family.maximumImages(model, fields) },
      });
    };
  return { createImage: relayImage("generations"), createImageEdit: relayImage("edits") };
}

/**
 * The request as the family rules and the providers read it: JSON with the validator's defaults removed (nested ones
 * too: what goes upstream is what the client chose), or a multipart edit's text fields and file parts.
 */
function readImageFields(request: Request, response: Response, task: ImageTask): ImageFields {
  if (typeof request.is("multipart/form-data") === "string") {
    const files = (request.files as UploadedImageFile[] | undefined) ?? [];
    const fileFields = new Set(files.map((file) => file.fieldname));
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries((request.body ?? {}) as Record<string, unknown>))
      if (
        !fileFields.has(name) &&
        (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      )
        body[name] = String(value);
    return { task: "edits", kind: "multipart", body, files };
  }
  return {
    task,
    kind: "json",
    body: withoutInjectedNestedDefaults(request.body as Record<string, unknown>, response),
    files: [],
  };
}

/** Reference images are held at a media part's worth each, not at their base64 length (raw base64 is no data: URI). */
function estimateImagePromptTokens(fields: ImageFields): number {
  if (fields.kind === "multipart") return estimatePromptTokens(fields.body) + MEDIA_PART_TOKENS * fields.files.length;
  const { image, images, contents, ...rest } = fields.body;
  const references = readImageReferences({ image, images, contents }).length;
  const contentsText = readContentsParts({ contents }).flatMap((part) =>
    typeof part.text === "string" ? [part.text] : [],
  );
  return estimatePromptTokens({ ...rest, contentsText }) + MEDIA_PART_TOKENS * references;
}

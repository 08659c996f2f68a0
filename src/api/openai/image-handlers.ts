import type { Request, Response } from "express";
import { estimatePromptTokens, MEDIA_PART_TOKENS } from "../../billing/estimate-prompt-tokens.js";
import { findModelPrice } from "../../billing/find-model-price.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import { withoutInjectedNestedDefaults } from "../../http/without-injected-nested-defaults.js";
import { createSafeFetcher } from "../../net/create-safe-fetcher.js";
import type { ImageCall } from "../../providers/image-families/image-call.js";
import type { ImageRelayCall, UploadedImageFile } from "../../providers/image-families/image-relay-call.js";
import { readContentsParts } from "../../providers/image-families/read-image-prompt.js";
import { readImageReferences } from "../../providers/image-families/read-image-references.js";
import { resolveImageFamily } from "../../providers/image-families/resolve-image-family.js";
import { nativeMediaMaxBytes, nativeMediaTimeoutMs } from "../../providers/native/create-native-media-fetcher.js";
import { nativeImageMimeTypes } from "../../providers/native/native-image-mime-types.js";
import { relayNativeImage } from "../../providers/native/relay-native-image.js";
import { relayOpenaiImage } from "../../providers/openai/relay-openai-image.js";
import { runRelay } from "../../relay/run-relay.js";

type ImageTask = "generations" | "edits";

/**
 * /v1/images/generations and /v1/images/edits: the model's family rules first (every refusal before a channel is
 * chosen or quota held), then one relay whose channels speak the family's provider protocol. The reservation holds
 * the most images the request can return; the bill counts those actually returned.
 */
export function createImageHandlers(
  context: GatewayContext,
): Record<"createImage" | "createImageEdit", OperationHandler> {
  // One downloader for the gateway's life (it owns a connection pool), limited to the seed's image types.
  const fetchImage = createSafeFetcher({
    maxBytes: nativeMediaMaxBytes,
    allowedMimeTypes: nativeImageMimeTypes,
    timeoutMs: nativeMediaTimeoutMs,
    allowPrivate: context.config.fetchAllowPrivate,
  });

  const relayImage = (task: ImageTask): OperationHandler =>
    async function relayImageRequest(request, response) {
      const call = readImageCall(request, response, task);
      const model = typeof call.body.model === "string" ? call.body.model : "";
      const family = resolveImageFamily(model, call, findModelPrice(context.config.pricing, model));
      const relayCall: ImageRelayCall = {
        ...call,
        model,
        family,
        fetchImage,
        nativeSafetySettings: context.config.nativeSafetySettings,
        now: () => context.now(),
        cache: new Map(),
      };
      await runRelay(context, request, response, {
        model,
        isStream: false,
        promptTokenEstimate: estimateImagePromptTokens(call),
        maxOutputTokens: undefined,
        reservedUsage: { imageCount: family.maximumImages(model, call) },
        channelTypes: family.name === "gmx" ? ["native", "openai"] : ["openai"],
        execute: (input) =>
          input.attempt.channel.type === "native"
            ? relayNativeImage(relayCall, input)
            : relayOpenaiImage(relayCall, input),
      });
    };
  return { createImage: relayImage("generations"), createImageEdit: relayImage("edits") };
}

/**
 * The request as the family rules and the providers read it: JSON with the validator's defaults removed (nested ones
 * too: what goes upstream is what the client chose), or a multipart edit's text fields and file parts.
 */
function readImageCall(
  request: Request,
  response: Response,
  task: ImageTask,
): ImageCall & { files: UploadedImageFile[] } {
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
function estimateImagePromptTokens(call: ImageCall): number {
  if (call.kind === "multipart") return estimatePromptTokens(call.body) + MEDIA_PART_TOKENS * call.files.length;
  const { image, images, contents, ...rest } = call.body;
  const references = readImageReferences({ image, images, contents }).length;
  const contentsText = readContentsParts({ contents }).flatMap((part) =>
    typeof part.text === "string" ? [part.text] : [],
  );
  return estimatePromptTokens({ ...rest, contentsText }) + MEDIA_PART_TOKENS * references;
}

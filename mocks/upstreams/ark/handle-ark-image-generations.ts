import { createTinyPng } from "../native/create-tiny-png.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { originOf } from "../shared/origin-of.js";
import { sendJson } from "../shared/send-json.js";
import { ArkError } from "./ark-error.js";
import type { FakeArkState } from "./fake-ark-state.js";
import { FAKE_RESULT_JPEG } from "./fake-result-jpeg.js";

/** Output tokens the fake reports per generated image. */
export const FAKE_ARK_TOKENS_PER_IMAGE = 4096;
/** The PNG the fake hosts for png results. */
export const FAKE_ARK_PNG = createTinyPng(1, 1, [30, 90, 160]);

const presets = new Map([
  ["1K", "1024x1024"],
  ["2K", "2048x2048"],
  ["4K", "4096x4096"],
]);

/**
 * POST /api/v3/images/generations, Seedream-style. Checks what the real API checks (model, prompt, size form,
 * enums and ranges), then returns one image, or `max_images` (default 4) with `sequential_image_generation: auto`,
 * hosted on the fake's own origin (`url`) or inline (`b64_json`). Prompt markers drive the safety paths:
 * `[sensitive]` → 400 InputTextSensitiveContentDetected, `[output-sensitive]` → every item an error, `[partial]` →
 * the second item an error, `[empty]` → `data: []`.
 */
export async function handleArkImageGenerations(exchange: FakeExchange, state: FakeArkState): Promise<void> {
  const body = exchange.body.value;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ArkError(400, "InvalidParameter", "The request body is not valid JSON.");
  const request = body as Record<string, unknown>;
  if (typeof request.model !== "string" || request.model === "")
    throw new ArkError(
      400,
      "MissingParameter",
      "The request failed because it is missing one or multiple required parameters: model.",
      "model",
    );
  if (typeof request.prompt !== "string" || request.prompt === "")
    throw new ArkError(
      400,
      "MissingParameter",
      "The request failed because it is missing one or multiple required parameters: prompt.",
      "prompt",
    );
  const size = request.size === undefined ? "2K" : String(request.size);
  if (!presets.has(size) && !/^\d+x\d+$/.test(size))
    throw new ArkError(
      400,
      "InvalidParameter",
      `The parameter \`size\` specified in the request is not valid: ${size}.`,
      "size",
    );
  const responseFormat = request.response_format ?? "url";
  if (responseFormat !== "url" && responseFormat !== "b64_json")
    throw new ArkError(
      400,
      "InvalidParameter",
      "The parameter `response_format` specified in the request is not valid.",
      "response_format",
    );
  const mode = request.sequential_image_generation ?? "disabled";
  if (mode !== "auto" && mode !== "disabled")
    throw new ArkError(
      400,
      "InvalidParameter",
      "The parameter `sequential_image_generation` specified in the request is not valid.",
      "sequential_image_generation",
    );
  const maxImages =
    (request.sequential_image_generation_options as { max_images?: unknown } | undefined)?.max_images ?? 4;
  if (typeof maxImages !== "number" || !Number.isInteger(maxImages) || maxImages < 1 || maxImages > 15)
    throw new ArkError(
      400,
      "InvalidParameter",
      "The parameter `max_images` specified in the request is not valid.",
      "sequential_image_generation_options.max_images",
    );
  if (
    request.guidance_scale !== undefined &&
    !(typeof request.guidance_scale === "number" && request.guidance_scale >= 1 && request.guidance_scale <= 10)
  )
    throw new ArkError(
      400,
      "InvalidParameter",
      "The parameter `guidance_scale` specified in the request is not valid.",
      "guidance_scale",
    );
  if (request.prompt.includes("[sensitive]"))
    throw new ArkError(
      400,
      "InputTextSensitiveContentDetected",
      "The request failed because the input text may contain sensitive information.",
    );

  const prompt = request.prompt;
  const count = mode === "auto" ? maxImages : 1;
  const png = request.output_format === "png";
  const bytes = png ? FAKE_ARK_PNG : FAKE_RESULT_JPEG;
  const outputSize = presets.get(size) ?? size;
  const blocked = {
    error: {
      code: "OutputImageSensitiveContentDetected",
      message: "The generated image may contain sensitive information.",
    },
  };
  const data = prompt.includes("[empty]")
    ? []
    : Array.from({ length: count }, (_, index) => {
        if (prompt.includes("[output-sensitive]")) return blocked;
        if (prompt.includes("[partial]") && index === 1) return blocked;
        if (responseFormat === "b64_json") return { b64_json: bytes.toString("base64"), size: outputSize };
        const path = state.files.add(png ? "image/png" : "image/jpeg", bytes, png ? "png" : "jpeg");
        return { url: `${originOf(exchange)}${path}?X-Tos-Expires=86400`, size: outputSize };
      });
  const generated = data.filter((item) => !("error" in item)).length;
  await sendJson(exchange, 200, {
    model: request.model,
    created: Math.floor(state.now() / 1000),
    data,
    usage: {
      generated_images: generated,
      output_tokens: generated * FAKE_ARK_TOKENS_PER_IMAGE,
      total_tokens: generated * FAKE_ARK_TOKENS_PER_IMAGE,
    },
  });
}

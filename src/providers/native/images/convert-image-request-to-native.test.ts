import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { convertImageRequestToNative } from "./convert-image-request-to-native.js";
import { mapImageQualityToSize } from "./map-image-quality-to-size.js";
import { mapImageSizeToAspectRatio } from "./map-image-size-to-aspect-ratio.js";
import { rejectionOf } from "../../../../test/support/rejection-of.js";

const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const noFetch: FetchMedia = () => Promise.reject(new Error("no fetch expected"));

describe("mapImageSizeToAspectRatio", () => {
  it.each([
    ["256x256", "1:1"],
    ["512x512", "1:1"],
    ["1024x1024", "1:1"],
    ["1536x1024", "3:2"],
    ["1024x1536", "2:3"],
    ["1024x1792", "9:16"],
    ["1792x1024", "16:9"],
    ["16:9", "16:9"],
    ["9:16", "9:16"],
    ["2048x2048", undefined],
    [undefined, undefined],
    [null, undefined],
  ])("%s → %s", (size, ratio) => expect(mapImageSizeToAspectRatio(size)).toBe(ratio));
});

describe("mapImageQualityToSize", () => {
  it.each([
    ["hd", "2K"],
    ["high", "2K"],
    ["2K", "2K"],
    ["standard", "1K"],
    ["medium", "1K"],
    ["low", "1K"],
    ["auto", "1K"],
    ["1K", "1K"],
    [undefined, "1K"],
  ])("%s → %s", (quality, size) => expect(mapImageQualityToSize(quality)).toBe(size));
});

describe("convertImageRequestToNative", () => {
  it("builds a text-to-image body with the mapped aspect ratio and tier, ignoring n and response_format", async () => {
    const body = await convertImageRequestToNative({
      request: {
        model: "gmx-2.5-flash-image",
        prompt: "a lighthouse",
        size: "1792x1024",
        quality: "hd",
        n: 4,
        response_format: "url",
      },
      fetchMedia: noFetch,
    });
    expect(body).toEqual({
      contents: [{ role: "user", parts: [{ text: "a lighthouse" }] }],
      generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "16:9", imageSize: "2K" } },
    });
  });

  it("inlines data URIs, raw base64 and fetched URLs, in order", async () => {
    const fetched: string[] = [];
    const fetchMedia: FetchMedia = (url) => {
      fetched.push(url);
      return Promise.resolve({ mimeType: "image/webp", data: Buffer.from("webp-bytes") });
    };
    const body = await convertImageRequestToNative({
      request: {
        model: "gmx-3-pro-image-preview",
        prompt: "merge",
        image: [`data:image/png;base64,${pngBase64}`, pngBase64, "https://example.com/a.webp"],
      },
      fetchMedia,
    });
    expect(fetched).toEqual(["https://example.com/a.webp"]);
    expect(body.contents[0]!.parts).toEqual([
      { text: "merge" },
      { inlineData: { mimeType: "image/png", data: pngBase64 } },
      { inlineData: { mimeType: "image/png", data: pngBase64 } },
      { inlineData: { mimeType: "image/webp", data: Buffer.from("webp-bytes").toString("base64") } },
    ]);
    expect(body.generationConfig?.imageConfig).toEqual({ imageSize: "1K" });
  });

  it("lets image_size, mime_type, response_modalities, temperature and top_p through", async () => {
    const body = await convertImageRequestToNative({
      request: {
        model: "gmx",
        prompt: "p",
        quality: "low",
        image_size: "4k",
        mime_type: "image/JPEG",
        response_modalities: ["text", "image"],
        temperature: 0.5,
        top_p: 0.9,
      },
      fetchMedia: noFetch,
      safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
    });
    expect(body.generationConfig).toEqual({
      responseModalities: ["TEXT", "IMAGE"],
      imageConfig: { imageSize: "4K", imageOutputOptions: { mimeType: "image/jpeg" } },
      temperature: 0.5,
      topP: 0.9,
    });
    expect(body.safetySettings).toHaveLength(1);
  });

  it("refuses an empty prompt, a disallowed type and unreadable base64 with 400 invalid_request", async () => {
    const refuse = (request: Parameters<typeof convertImageRequestToNative>[0]["request"]) =>
      rejectionOf(convertImageRequestToNative({ request, fetchMedia: noFetch }), InvalidRequestError);
    const empty = await refuse({ model: "gmx", prompt: "  " });
    expect(empty).toBeInstanceOf(InvalidRequestError);
    expect(empty).toMatchObject({ status: 400, code: "invalid_request", param: "prompt" });
    expect(await refuse({ model: "gmx", prompt: "p", image: "data:image/gif;base64,R0lGODlh" })).toMatchObject({
      code: "invalid_request",
      param: "image",
    });
    expect(await refuse({ model: "gmx", prompt: "p", image: ["not an image!"] })).toMatchObject({
      code: "invalid_request",
      param: "image[0]",
    });
    expect(
      await refuse({ model: "gmx", prompt: "p", image: Buffer.from("plain text").toString("base64") }),
    ).toMatchObject({ code: "invalid_request" });
  });
});

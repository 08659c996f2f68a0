import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { FAKE_IMAGE_B64 } from "../../mocks/upstreams/openai/handle-images.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const referencePng = createTinyPng(1, 1, [10, 20, 30]).toString("base64");
type ImageParams = OpenAI.Images.ImageGenerateParamsNonStreaming & Record<string, unknown>;

/**
 * /v1/images/generations and /v1/images/edits through the official SDK: OpenAI-compatible channels pass the request
 * through (JSON and multipart), the gmx- family is translated to native generateContent. Billing is per image returned.
 */
describe.each(testDatabases)("image endpoints on $name", ({ database }) => {
  let openaiUpstream: FakeUpstream;
  let nativeUpstream: FakeNativeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;

  beforeAll(async () => {
    openaiUpstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    nativeUpstream = await startFakeNativeServer({ apiKey: "native-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "images-openai",
            type: "openai",
            base_url: openaiUpstream.url,
            key: "openai-secret",
            models: ["img-c-2"],
            model_mapping: { "img-c-2": "upstream-img-c-2" },
          },
          {
            name: "images-native",
            type: "native",
            base_url: nativeUpstream.url,
            key: "native-secret",
            models: ["gmx-2.5-flash-image", "gmx-3-pro-image-preview"],
          },
        ],
        pricing: {
          // 0.02 USD = 10,000 units per image, plus tokens at 2 / 4 USD per 1M.
          "img-c-2": { per_image: 0.02, input: 2, output: 4 },
          // 0.04 USD = 20,000 units per image, no token price.
          "gmx-2.5-flash-image": { per_image: 0.04 },
          "gmx-3-pro-image-preview": { per_image: 0.04 },
        },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = apiKey.id;
    client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await openaiUpstream.close();
    await nativeUpstream.close();
  });
  beforeEach(() => {
    openaiUpstream.reset();
    nativeUpstream.reset();
  });

  const spent = async (action: () => Promise<unknown>): Promise<number> => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };

  it("sends img-c-2 generations to the OpenAI images API with the document's defaults, billed by images and tokens", async () => {
    let answer: OpenAI.Images.ImagesResponse | undefined;
    const cost = await spent(async () => {
      answer = await client.images.generate({
        model: "img-c-2",
        prompt: "a red fox",
        n: 2,
        response_format: "b64_json",
      });
    });
    expect(answer).toMatchObject({
      model: "img-c-2",
      data: [
        { b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" },
        { b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" },
      ],
      usage: { input_images: 0, generated_images: 2, output_tokens: 200, total_tokens: 203 },
    });
    expect(openaiUpstream.requests[0]!.path).toBe("/v1/images/generations");
    expect(openaiUpstream.requests[0]!.headers.authorization).toBe("Bearer openai-secret");
    // response_format never goes (GPT-image models refuse it); size and quality are sent as the document's defaults.
    expect(openaiUpstream.requests[0]!.body).toEqual({
      model: "upstream-img-c-2",
      prompt: "a red fox",
      n: 2,
      size: "1024x1024",
      quality: "high",
    });
    // 2 images × 10,000 + 3 input tokens × 2 USD/1M (3 units) + 200 output tokens × 4 USD/1M (400 units)
    expect(cost).toBe(20_403);
  });

  it("rebuilds a multipart img-c-2 edit for the upstream, files included", async () => {
    const image = await toFile(Buffer.from(referencePng, "base64"), "street.png", { type: "image/png" });
    let answer: OpenAI.Images.ImagesResponse | undefined;
    const cost = await spent(async () => {
      answer = await client.images.edit({
        model: "img-c-2",
        prompt: "make it blue",
        image,
        input_fidelity: "high",
      });
    });
    expect(answer!.data).toEqual([{ b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" }]);
    const sent = openaiUpstream.requests[0]!;
    expect(sent.path).toBe("/v1/images/edits");
    expect(String(sent.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Request("http://x.invalid/", {
      method: "POST",
      headers: { "content-type": String(sent.headers["content-type"]) },
      body: sent.body as Buffer,
    }).formData();
    expect(form.get("model")).toBe("upstream-img-c-2");
    expect(form.get("prompt")).toBe("make it blue");
    expect(form.get("input_fidelity")).toBe("high");
    expect(form.get("response_format")).toBeNull();
    const file = form.getAll("image[]")[0] as File;
    expect(file.name).toBe("street.png");
    expect(Buffer.from(await file.arrayBuffer()).toString("base64")).toBe(referencePng);
    // 1 image × 10,000 + 3 words × 2 µUSD (+ 50 image input tokens × 2 µUSD) = 106 µUSD = 53 units + 100 output × 4 µUSD = 200 units
    expect(cost).toBe(10_000 + 53 + 200);
  });

  it("translates a gmx- request to native generateContent and answers b64_json, billed per returned image", async () => {
    let answer: OpenAI.Images.ImagesResponse | undefined;
    const cost = await spent(async () => {
      answer = await client.images.generate({
        model: "gmx-2.5-flash-image",
        prompt: "a lighthouse",
        size: "1792x1024",
        quality: "hd",
        n: 3,
        response_format: "url",
        image: `data:image/png;base64,${referencePng}`,
      } as ImageParams);
    });
    const sent = nativeUpstream.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gmx-2.5-flash-image:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe("native-secret");
    expect(sent.body).toEqual({
      contents: [
        {
          role: "user",
          parts: [{ text: "a lighthouse" }, { inlineData: { mimeType: "image/png", data: referencePng } }],
        },
      ],
      generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "16:9", imageSize: "2K" } },
    });
    expect(answer!.data).toHaveLength(1);
    const image = answer!.data![0]! as { b64_json?: string; url?: string; revised_prompt?: string };
    expect(image.url).toBe("");
    expect(image.b64_json).not.toMatch(/^data:/);
    expect(Buffer.from(image.b64_json!, "base64").subarray(1, 4).toString("ascii")).toBe("PNG");
    expect((answer as unknown as { metadata: { text: string } }).metadata.text).toBe(image.revised_prompt);
    expect(answer!.usage).toMatchObject({ output_tokens_details: { image_tokens: 1290 } });
    expect(cost).toBe(20_000);
  });

  it("treats /v1/images/edits with JSON like generations for gmx- (raw base64 reference)", async () => {
    const answer = await client.post<OpenAI.Images.ImagesResponse>("/images/edits", {
      body: { model: "gmx-3-pro-image-preview", prompt: "p", image: [referencePng], size: "16:9" },
    });
    expect(answer.data).toHaveLength(1);
    expect(nativeUpstream.requests[0]!.body).toMatchObject({
      contents: [{ parts: [{ text: "p" }, { inlineData: { mimeType: "image/png", data: referencePng } }] }],
      generationConfig: { imageConfig: { aspectRatio: "16:9", imageSize: "1K" } },
    });
  });

  it("answers 400 invalid_request for an empty gmx- prompt and a gmx- multipart edit, without calling upstream or charging", async () => {
    const cost = await spent(async () => {
      const empty = await client.images
        .generate({ model: "gmx-2.5-flash-image", prompt: "" })
        .catch((error: unknown) => error);
      expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
      expect((empty as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("invalid_request");
      const image = await toFile(Buffer.from(referencePng, "base64"), "a.png", { type: "image/png" });
      const multipart = await client.images
        .edit({ model: "gmx-2.5-flash-image", prompt: "edit", image })
        .catch((error: unknown) => error);
      expect(multipart).toBeInstanceOf(OpenAI.BadRequestError);
      expect((multipart as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("invalid_request");
    });
    expect(cost).toBe(0);
    expect(nativeUpstream.requests).toHaveLength(0);
  });

  it("reserves the requested images at per_image, so a balance for one image cannot buy three", async () => {
    const small = await createApiKey(gateway, { remainQuota: 20_000 });
    const smallClient = new OpenAI({ apiKey: small.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const refused = await smallClient.images
      .generate({ model: "img-c-2", prompt: "three cats", n: 3 })
      .catch((error: unknown) => error);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe("insufficient_quota");
    expect(openaiUpstream.requests).toHaveLength(0);
    const one = await smallClient.images.generate({ model: "img-c-2", prompt: "one cat", n: 1 });
    expect(one.data).toHaveLength(1);
  });

  it("answers 400 prompt_blocked for a blocked prompt and charges nothing", async () => {
    const cost = await spent(async () => {
      const blocked = await client.images
        .generate({ model: "gmx-2.5-flash-image", prompt: "[block] something" })
        .catch((error: unknown) => error);
      expect(blocked).toBeInstanceOf(OpenAI.BadRequestError);
      expect((blocked as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("prompt_blocked");
    });
    expect(cost).toBe(0);
    expect(nativeUpstream.requests).toHaveLength(1);
  });
});

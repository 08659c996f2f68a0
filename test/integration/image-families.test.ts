import http from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_ARK_PNG } from "../../mocks/upstreams/ark/handle-ark-image-generations.js";
import { startFakeArkServer } from "../../mocks/upstreams/ark/start-fake-ark-server.js";
import { FAKE_DASHSCOPE_PNG } from "../../mocks/upstreams/dashscope/handle-dashscope-image-generation.js";
import { startFakeDashscopeServer } from "../../mocks/upstreams/dashscope/start-fake-dashscope-server.js";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { FAKE_IMAGE_B64 } from "../../mocks/upstreams/openai/handle-images.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

type Params = OpenAI.Images.ImageGenerateParamsNonStreaming & Record<string, unknown>;
type APIError = InstanceType<typeof OpenAI.APIError>;
const referencePng = createTinyPng(1, 1, [10, 20, 30]);
const referenceDataUri = `data:image/png;base64,${referencePng.toString("base64")}`;
const publicImageUrl = "https://cdn.example.com/ref.png";
const imgDMessages = (...content: Array<Record<string, string>>) => ({ messages: [{ role: "user", content }] });

/**
 * Every image family on its provider's own protocol through the official SDK, on SQLite and PostgreSQL: img-b- on
 * ARK, img-d- on DashScope, img-c-2 on the OpenAI images API, gmx- on native; the image document's rules refused
 * before any upstream call; every row of its error table provoked through the fakes; the exact quota after each.
 */
describe.each(testDatabases)("image families on $name", ({ database }) => {
  let ark: FakeUpstream;
  let dashscope: FakeUpstream;
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  let referenceHost: http.Server;
  let referenceUrl: string;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;

  beforeAll(async () => {
    [ark, dashscope, openai, native] = await Promise.all([
      startFakeArkServer({ apiKey: "ark-secret" }),
      startFakeDashscopeServer({ apiKey: "ds-secret" }),
      startFakeOpenaiServer({ apiKey: "openai-secret" }),
      startFakeNativeServer({ apiKey: "native-secret" }),
    ]);
    // A reference image on an internal host, reachable only through fetch.allow_private.
    referenceHost = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" }).end(referencePng);
    });
    await new Promise<void>((resolve) => referenceHost.listen(0, "127.0.0.1", resolve));
    referenceUrl = `http://127.0.0.1:${(referenceHost.address() as AddressInfo).port}/ref.png`;
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "ark-main",
            type: "ark",
            base_url: ark.url,
            key: "ark-secret",
            models: [
              "img-b-3-0-t2i-250415",
              "img-b-4-0-250828",
              "img-b-4-5-251128",
              "img-b-edit-3-0-i2i-250628",
              "img-b-5-0-pro-260628",
            ],
            model_mapping: { "img-b-4-0-250828": "doubao-seedream-4-0-250828" },
            timeouts: { header_ms: 1_500 },
          },
          {
            name: "ds-main",
            type: "dashscope",
            base_url: dashscope.url,
            key: "ds-secret",
            models: ["img-d-plus", "img-d-edit-plus"],
            model_mapping: { "img-d-edit-plus": "qwen-image-edit-plus" },
          },
          {
            name: "openai-images",
            type: "openai",
            base_url: openai.url,
            key: "openai-secret",
            models: ["img-c-2", "chat-model-1"],
          },
          {
            name: "native-images",
            type: "native",
            base_url: native.url,
            key: "native-secret",
            models: ["gmx-2.5-flash-image"],
          },
        ],
        pricing: {
          "img-b-3-0-t2i-250415": { per_image: 0.02 },
          "img-b-4-0-250828": { per_image: 0.03 },
          "img-b-4-5-251128": { per_image: 0.03 },
          "img-b-edit-3-0-i2i-250628": { per_image: 0.02 },
          "img-b-5-0-pro-260628": { per_image: 0.05 },
          "img-c-2": { per_image: 0.02 },
          "img-d-plus": { per_image: 0.02 },
          "img-d-edit-plus": { per_image: 0.02 },
          "gmx-2.5-flash-image": { per_image: 0.04 },
          "chat-model-1": { input: 1, output: 2 },
        },
        relay: { max_attempts: 2, cooldown_after_failures: 1000 },
        fetch: { allow_private: ["127.0.0.1/32"] },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 5_000_000 });
    tokenId = apiKey.id;
    client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([ark.close(), dashscope.close(), openai.close(), native.close()]);
    referenceHost.closeAllConnections();
    await new Promise((resolve) => referenceHost.close(resolve));
  });
  beforeEach(() => {
    for (const upstream of [ark, dashscope, openai, native]) upstream.reset();
  });

  const spent = async (action: () => Promise<unknown>): Promise<number> => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("the request succeeded");
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(OpenAI.APIError);
        return error as APIError;
      },
    );
  const generate = (body: Record<string, unknown>) => client.images.generate(body as unknown as Params);

  describe("img-b- on ARK", () => {
    it("sends exactly what the family needs (watermark false, no injected defaults) and bills the images returned", async () => {
      let answer: OpenAI.Images.ImagesResponse | undefined;
      const cost = await spent(async () => {
        answer = await generate({
          model: "img-b-4-0-250828",
          prompt: "four seasons",
          size: "2560x1440",
          image: [referenceDataUri, "https://cdn.example.com/style.jpg"],
          sequential_image_generation: "auto",
          sequential_image_generation_options: { max_images: 3 },
          optimize_prompt_options: {},
        });
      });
      expect(ark.requests[0]!.path).toBe("/api/v3/images/generations");
      expect(ark.requests[0]!.headers.authorization).toBe("Bearer ark-secret");
      expect(ark.requests[0]!.body).toEqual({
        model: "doubao-seedream-4-0-250828",
        prompt: "four seasons",
        image: [referenceDataUri, "https://cdn.example.com/style.jpg"],
        size: "2560x1440",
        watermark: false,
        sequential_image_generation: "auto",
        sequential_image_generation_options: { max_images: 3 },
        optimize_prompt_options: {},
      });
      expect(answer).toMatchObject({
        model: "img-b-4-0-250828",
        usage: { input_images: 2, generated_images: 3, output_tokens: 3 * 4096, total_tokens: 3 * 4096 },
      });
      expect(answer!.data).toHaveLength(3);
      expect(answer!.data![0]).toMatchObject({ size: "2560x1440", output_format: "jpeg" });
      expect(answer!.data![0]!.url).toMatch(new RegExp(`^${ark.url}/results/`));
      expect(cost).toBe(3 * 15_000);
    });

    it("bills only the images a group generation returned, not the ones the safety filter dropped", async () => {
      const cost = await spent(async () => {
        const answer = await generate({
          model: "img-b-4-5-251128",
          prompt: "[partial] a series",
          sequential_image_generation: "auto",
          sequential_image_generation_options: { max_images: 2 },
        });
        expect(answer.data).toHaveLength(1);
      });
      expect(cost).toBe(15_000);
    });

    it("gives img-b-5-0-pro-260628 one image whatever n, billed once, in the asked format", async () => {
      let answer: OpenAI.Images.ImagesResponse | undefined;
      const cost = await spent(async () => {
        answer = await generate({
          model: "img-b-5-0-pro-260628",
          prompt: "a mug",
          n: 3,
          size: "2K",
          images: [referenceUrl],
          output_format: "png",
          response_format: "b64_json",
        });
      });
      expect(ark.requests[0]!.body).toEqual({
        model: "img-b-5-0-pro-260628",
        prompt: "a mug",
        image: [referenceUrl],
        size: "2K",
        output_format: "png",
        response_format: "b64_json",
        watermark: false,
      });
      expect(answer!.data).toEqual([
        { b64_json: FAKE_ARK_PNG.toString("base64"), size: "2048x2048", output_format: "png" },
      ]);
      expect(cost).toBe(25_000);
    });
  });

  describe("img-d- on DashScope", () => {
    it("sends input.messages images first and produces b64_json by downloading each result", async () => {
      let answer: OpenAI.Images.ImagesResponse | undefined;
      const cost = await spent(async () => {
        // The SDK's images.edit always sends multipart; the img-d- edit is JSON, as the document specifies.
        answer = await client.post<OpenAI.Images.ImagesResponse>("/images/edits", {
          body: {
            model: "img-d-edit-plus",
            input: imgDMessages({ text: "add a lamp" }, { image: referenceUrl }),
            parameters: { n: 2, size: "1536*1024", watermark: false },
            response_format: "b64_json",
          },
        });
      });
      expect(dashscope.requests[0]!.path).toBe("/api/v1/services/aigc/multimodal-generation/generation");
      expect(dashscope.requests[0]!.headers.authorization).toBe("Bearer ds-secret");
      expect(dashscope.requests[0]!.body).toEqual({
        model: "qwen-image-edit-plus",
        input: imgDMessages({ image: referenceUrl }, { text: "add a lamp" }),
        parameters: { n: 2, size: "1536*1024", watermark: false },
      });
      // The two result files were fetched back from the fake's own origin.
      expect(dashscope.requests.filter((request) => request.path.startsWith("/results/"))).toHaveLength(2);
      expect(answer!.data).toEqual([
        { b64_json: FAKE_DASHSCOPE_PNG.toString("base64"), size: "1536x1024", output_format: "png" },
        { b64_json: FAKE_DASHSCOPE_PNG.toString("base64"), size: "1536x1024", output_format: "png" },
      ]);
      expect(answer!.usage).toMatchObject({ input_images: 1, generated_images: 2 });
      expect(cost).toBe(2 * 10_000);
    });

    it("answers img-d-plus with the result URL by default", async () => {
      const cost = await spent(async () => {
        const answer = await generate({ model: "img-d-plus", input: imgDMessages({ text: "a lantern" }) });
        expect(answer.data![0]!.url).toMatch(new RegExp(`^${dashscope.url}/results/.*\\.png\\?Expires=`));
      });
      expect(dashscope.requests[0]!.body).toEqual({ model: "img-d-plus", input: imgDMessages({ text: "a lantern" }) });
      expect(cost).toBe(10_000);
    });
  });

  describe("img-c-2 on the OpenAI images API", () => {
    it("downloads a JSON image URL through the safe fetcher and sends a multipart edit with image[]", async () => {
      const cost = await spent(async () => {
        const answer = await generate({
          model: "img-c-2",
          prompt: "starry sky",
          image: referenceUrl,
          input_fidelity: "high",
          n: 2,
        });
        expect(answer.data).toEqual([
          { b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" },
          { b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" },
        ]);
      });
      const sent = openai.requests[0]!;
      expect(sent.path).toBe("/v1/images/edits");
      const form = await new Request("http://x.invalid/", {
        method: "POST",
        headers: { "content-type": String(sent.headers["content-type"]) },
        body: sent.body as Buffer,
      }).formData();
      expect(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"))).toEqual({
        model: "img-c-2",
        prompt: "starry sky",
        input_fidelity: "high",
        n: "2",
        size: "1024x1024",
        quality: "high",
      });
      const files = form.getAll("image[]") as File[];
      expect(files).toHaveLength(1);
      expect(Buffer.from(await files[0]!.arrayBuffer())).toEqual(referencePng);
      expect(cost).toBe(2 * 10_000);
    });

    it("takes several image[] files in a multipart edit", async () => {
      const images = await Promise.all(
        ["a.png", "b.png"].map((name) => toFile(referencePng, name, { type: "image/png" })),
      );
      const answer = await client.images.edit({ model: "img-c-2", prompt: "merge", image: images });
      expect(answer.data).toHaveLength(1);
      const form = await new Request("http://x.invalid/", {
        method: "POST",
        headers: { "content-type": String(openai.requests[0]!.headers["content-type"]) },
        body: openai.requests[0]!.body as Buffer,
      }).formData();
      expect((form.getAll("image[]") as File[]).map((file) => file.name)).toEqual(["a.png", "b.png"]);
    });
  });

  describe("the image document's rules, before any upstream call", () => {
    it.each([
      ["chat-model-1", { model: "chat-model-1", prompt: "p" }, "invalid_request", "model"],
      ["an empty prompt", { model: "img-b-4-0-250828", prompt: "" }, "invalid_request", "prompt"],
      [
        "a reference that is no image",
        { model: "img-b-4-0-250828", prompt: "p", image: "data:text/html;base64,PGI+" },
        "invalid_request",
        "image",
      ],
      [
        "img-b-3-0 with an image",
        { model: "img-b-3-0-t2i-250415", prompt: "p", image: referenceDataUri },
        "invalid_parameter",
        "image",
      ],
      [
        "img-b-3-0 with a 4K size",
        { model: "img-b-3-0-t2i-250415", prompt: "p", size: "4096x4096" },
        "invalid_parameter",
        "size",
      ],
      [
        "img-b-4-0 with a 3.0 size",
        { model: "img-b-4-0-250828", prompt: "p", size: "1024x1024" },
        "invalid_parameter",
        "size",
      ],
      [
        "the edit model without its one image",
        { model: "img-b-edit-3-0-i2i-250628", prompt: "p" },
        "invalid_parameter",
        "image",
      ],
      [
        "guidance_scale on 4.0",
        { model: "img-b-4-0-250828", prompt: "p", guidance_scale: 3 },
        "invalid_parameter",
        "guidance_scale",
      ],
      [
        "guidance_scale above 10",
        { model: "img-b-3-0-t2i-250415", prompt: "p", guidance_scale: 11 },
        "invalid_parameter",
        "guidance_scale",
      ],
      [
        "sequential mode on 3.0",
        { model: "img-b-3-0-t2i-250415", prompt: "p", sequential_image_generation: "auto" },
        "invalid_parameter",
        "sequential_image_generation",
      ],
      [
        "max_images 5",
        {
          model: "img-b-4-0-250828",
          prompt: "p",
          sequential_image_generation: "auto",
          sequential_image_generation_options: { max_images: 5 },
        },
        "invalid_parameter",
        "sequential_image_generation_options.max_images",
      ],
      [
        "fast mode on 4.5",
        { model: "img-b-4-5-251128", prompt: "p", optimize_prompt_options: { mode: "fast" } },
        "invalid_parameter",
        "optimize_prompt_options.mode",
      ],
      [
        "a seed out of range",
        { model: "img-b-4-0-250828", prompt: "p", seed: 2147483648 },
        "invalid_parameter",
        "seed",
      ],
      [
        "img-b-5-0-pro with a 4K size",
        { model: "img-b-5-0-pro-260628", prompt: "p", size: "4096x4096x" },
        "invalid_parameter",
        "size",
      ],
      [
        "img-b-5-0-pro in webp",
        { model: "img-b-5-0-pro-260628", prompt: "p", output_format: "webp" },
        "invalid_parameter",
        "output_format",
      ],
      ["img-c-2 n 11", { model: "img-c-2", prompt: "p", n: 11 }, "invalid_parameter", "n"],
      [
        "img-c-2 as url",
        { model: "img-c-2", prompt: "p", response_format: "url" },
        "invalid_parameter",
        "response_format",
      ],
      ["img-c-2 size 512", { model: "img-c-2", prompt: "p", size: "512x512" }, "invalid_parameter", "size"],
      ["img-c-2 quality hd", { model: "img-c-2", prompt: "p", quality: "hd" }, "invalid_parameter", "quality"],
      [
        "input_fidelity without an image",
        { model: "img-c-2", prompt: "p", input_fidelity: "high" },
        "invalid_parameter",
        "input_fidelity",
      ],
      ["img-d without input.messages", { model: "img-d-plus", prompt: "p" }, "invalid_request", "input.messages"],
      [
        "img-d-edit-plus with 4 images",
        {
          model: "img-d-edit-plus",
          input: imgDMessages(
            { image: publicImageUrl },
            { image: publicImageUrl },
            { image: publicImageUrl },
            { image: publicImageUrl },
            { text: "p" },
          ),
        },
        "invalid_parameter",
        "input.messages",
      ],
      [
        "img-d-edit-plus n 7",
        {
          model: "img-d-edit-plus",
          input: imgDMessages({ image: publicImageUrl }, { text: "p" }),
          parameters: { n: 7 },
        },
        "invalid_parameter",
        "parameters.n",
      ],
      [
        "img-d size as WxH",
        { model: "img-d-plus", input: imgDMessages({ text: "p" }), parameters: { size: "1024x1024" } },
        "invalid_parameter",
        "parameters.size",
      ],
    ])("refuses %s", async (_name, body, code, param) => {
      const cost = await spent(async () => {
        const error = await failure(generate(body));
        expect(error.status).toBe(400);
        expect(error.code, error.message).toBe(code);
        expect(error.param).toBe(param);
        expect(error.message).toMatch(param.split(".")[0]!.replace("[", ""));
      });
      expect(cost).toBe(0);
      for (const upstream of [ark, dashscope, openai, native]) expect(upstream.requests).toHaveLength(0);
    });

    it("ignores n above 10 for gmx- and accepts the contents form", async () => {
      const cost = await spent(async () => {
        const answer = await generate({
          model: "gmx-2.5-flash-image",
          n: 25,
          contents: [{ role: "user", parts: [{ text: "a cat" }, { image: referenceDataUri }] }],
        });
        expect(answer.data).toHaveLength(1);
      });
      expect(native.requests[0]!.body).toMatchObject({
        contents: [{ role: "user", parts: [{ text: "a cat" }, { inlineData: { mimeType: "image/png" } }] }],
      });
      expect(cost).toBe(20_000);
    });

    it("answers 401 invalid_authentication for an invalid and for an expired key", async () => {
      const invalid = new OpenAI({ apiKey: `sk-${"x".repeat(48)}`, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const refused = await failure(invalid.images.generate({ model: "img-c-2", prompt: "p" }));
      expect([refused.status, refused.code]).toEqual([401, "invalid_authentication"]);
      const token = await createTokenForTest(gateway.client, {
        unlimited_quota: true,
        expired_time: Math.floor(Date.now() / 1000) - 60,
      });
      const expired = new OpenAI({
        apiKey: `sk-${await revealApiKey(gateway.client, token.id)}`,
        baseURL: `${gateway.url}/v1`,
        maxRetries: 0,
      });
      const expiredError = await failure(expired.images.generate({ model: "img-c-2", prompt: "p" }));
      expect([expiredError.status, expiredError.code]).toEqual([401, "invalid_authentication"]);
    });

    it("answers 402 insufficient_quota when the balance cannot cover the images the request may return", async () => {
      const small = await createApiKey(gateway, { remainQuota: 30_000 });
      const smallClient = new OpenAI({ apiKey: small.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const error = await failure(
        smallClient.images.generate({
          model: "img-b-4-0-250828",
          prompt: "p",
          sequential_image_generation: "auto",
        } as unknown as Params),
      );
      expect([error.status, error.code]).toEqual([402, "insufficient_quota"]);
      expect(ark.requests).toHaveLength(0);
    });
  });

  describe("the image error table, through the fakes, nothing billed", () => {
    const families = [
      { name: "img-b on ARK", upstream: () => ark, body: { model: "img-b-4-5-251128", prompt: "p" } },
      {
        name: "img-d on DashScope",
        upstream: () => dashscope,
        body: { model: "img-d-plus", input: imgDMessages({ text: "p" }) },
      },
      { name: "img-c-2 on OpenAI", upstream: () => openai, body: { model: "img-c-2", prompt: "p" } },
      { name: "gmx- on native", upstream: () => native, body: { model: "gmx-2.5-flash-image", prompt: "p" } },
    ];
    const withPrompt = (body: Record<string, unknown>, marker: string): Record<string, unknown> =>
      "input" in body ? { ...body, input: imgDMessages({ text: `${marker} p` }) } : { ...body, prompt: `${marker} p` };
    const blockMarkers: Record<string, string> = {
      "img-b on ARK": "[sensitive]",
      "img-d on DashScope": "[sensitive]",
      "img-c-2 on OpenAI": "[moderation]",
      "gmx- on native": "[block]",
    };

    it.each(families)("$name: a safety refusal is 400 prompt_blocked", async ({ name, body }) => {
      const cost = await spent(async () => {
        const error = await failure(generate(withPrompt(body, blockMarkers[name]!)));
        expect([error.status, error.code]).toEqual([400, "prompt_blocked"]);
      });
      expect(cost).toBe(0);
    });

    it.each(families.filter((family) => family.name !== "gmx- on native"))(
      "$name: a 200 without an image is 502 empty_response",
      async ({ body }) => {
        const cost = await spent(async () => {
          const error = await failure(generate(withPrompt(body, "[empty]")));
          expect([error.status, error.code]).toEqual([502, "empty_response"]);
        });
        expect(cost).toBe(0);
      },
    );

    it.each(families)("$name: 429 is rate_limit_exceeded with Retry-After", async ({ body, upstream }) => {
      upstream().setFaults({ status: 429, retryAfterSeconds: 7 });
      const cost = await spent(async () => {
        const error = await failure(generate(body));
        expect([error.status, error.code]).toEqual([429, "rate_limit_exceeded"]);
        expect(error.headers?.get("retry-after")).toBe("7");
      });
      expect(cost).toBe(0);
    });

    it.each(families)("$name: a 5xx after retries is 503 bad_response", async ({ body, upstream }) => {
      upstream().setFaults({ status: 500 });
      const cost = await spent(async () => {
        const error = await failure(generate(body));
        expect([error.status, error.code]).toEqual([503, "bad_response"]);
      });
      expect(upstream().requests.length).toBeGreaterThanOrEqual(1);
      expect(cost).toBe(0);
    });

    it.each(families)("$name: a connection failure is 503 bad_response", async ({ body, upstream }) => {
      upstream().setFaults({ resetBeforeHeaders: true });
      const error = await failure(generate(body));
      expect([error.status, error.code]).toEqual([503, "bad_response"]);
    });

    it("an ARK InvalidParameter is 400 invalid_parameter with the provider's message and never its key", async () => {
      ark.setFaults({
        status: 400,
        body: {
          error: {
            code: "InvalidParameter",
            message: "image too small for key ark-secret",
            param: "image",
            type: "BadRequest",
          },
        },
        times: 1,
      });
      const error = await failure(generate({ model: "img-b-4-5-251128", prompt: "p" }));
      expect([error.status, error.code, error.param]).toEqual([400, "invalid_parameter", "image"]);
      // Masked where the upstream body was captured, in the form channel keys are shown everywhere.
      expect(error.message).toBe("400 image too small for key ark-**********cret");
      expect(error.message).not.toContain("ark-secret");
    });

    it("a DashScope InvalidParameter is 400 invalid_parameter with the provider's message", async () => {
      dashscope.setFaults({
        status: 400,
        body: { code: "InvalidParameter", message: "The size is not allowed." },
        times: 1,
      });
      const upstreamError = await failure(generate({ model: "img-d-plus", input: imgDMessages({ text: "p" }) }));
      expect([upstreamError.code, upstreamError.message]).toEqual([
        "invalid_parameter",
        "400 The size is not allowed.",
      ]);
    });

    it("an upstream that does not answer in time is 504 request_timeout", async () => {
      ark.setFaults({ latencyMs: 2_500 });
      const cost = await spent(async () => {
        const error = await failure(generate({ model: "img-b-4-5-251128", prompt: "p" }));
        expect([error.status, error.code]).toEqual([504, "request_timeout"]);
      });
      expect(cost).toBe(0);
    });
  });
});

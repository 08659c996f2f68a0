import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { readJson } from "../shared/read-json.js";
import { FAKE_IMAGE_B64 } from "./handle-images.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

async function post(path: string, body: unknown) {
  const response = await fetch(`${upstream.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await readJson(response) };
}

describe("POST /v1/images/generations and /v1/images/edits", () => {
  it("returns n URLs by default with usage by prompt words and images", async () => {
    const { status, body } = await post("/v1/images/generations", {
      model: "image-model-1",
      prompt: "a red fox",
      n: 2,
    });
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { url: "https://images.invalid/img_000001.png" },
      { url: "https://images.invalid/img_000002.png" },
    ]);
    expect(body.usage).toEqual({
      input_tokens: 3,
      output_tokens: 200,
      total_tokens: 203,
      input_tokens_details: { text_tokens: 3, image_tokens: 0 },
    });
    expect(typeof body.created).toBe("number");
  });

  it("returns a decodable PNG as b64_json", async () => {
    const { body } = await post("/v1/images/generations", { model: "m", prompt: "x", response_format: "b64_json" });
    expect(body.data).toEqual([{ b64_json: FAKE_IMAGE_B64 }]);
    expect(Buffer.from(body.data[0].b64_json, "base64").subarray(1, 4).toString("ascii")).toBe("PNG");
  });

  it("pads b64_json to the size a [b64-bytes:N] prompt asks for, still starting with the PNG", async () => {
    const { body } = await post("/v1/images/generations", {
      model: "m",
      prompt: "large [b64-bytes:1000001]",
      response_format: "b64_json",
    });
    const b64 = body.data[0].b64_json as string;
    expect(b64).toHaveLength(1_000_000);
    const bytes = Buffer.from(b64, "base64");
    expect(bytes).toHaveLength(750_000);
    expect(bytes.subarray(0, Buffer.from(FAKE_IMAGE_B64, "base64").length)).toEqual(
      Buffer.from(FAKE_IMAGE_B64, "base64"),
    );
    expect(bytes.at(-1)).toBe(0);
  });

  it("accepts multipart edits and counts the uploaded images", async () => {
    const form = new FormData();
    form.append("model", "img-c-2");
    form.append("prompt", "make it blue");
    form.append("n", "1");
    form.append("input_fidelity", "high");
    form.append("image[]", new Blob([Buffer.from(FAKE_IMAGE_B64, "base64")], { type: "image/png" }), "a.png");
    form.append("image[]", new Blob([Buffer.from(FAKE_IMAGE_B64, "base64")], { type: "image/png" }), "b.png");
    const response = await fetch(`${upstream.url}/v1/images/edits`, { method: "POST", body: form });
    const body = await readJson(response);
    expect(response.status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.usage.input_tokens_details).toEqual({ text_tokens: 3, image_tokens: 100 });
  });

  it("refuses a missing prompt and an edit without an image", async () => {
    expect((await post("/v1/images/generations", { model: "m" })).status).toBe(400);
    const edit = await post("/v1/images/edits", { model: "m", prompt: "p" });
    expect(edit.status).toBe(400);
    expect(edit.body.error.param).toBe("image");
  });
});

describe("GPT-image models (the img-c- family upstream)", () => {
  it("always answer b64_json with size, quality and format beside the data", async () => {
    const { status, body } = await post("/v1/images/generations", {
      model: "img-c-2",
      prompt: "a fox",
      size: "1536x1024",
      quality: "low",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      data: [{ b64_json: FAKE_IMAGE_B64 }],
      size: "1536x1024",
      quality: "low",
      output_format: "png",
    });
  });

  it("refuse response_format, a size off their list and input_fidelity on generations, as OpenAI does", async () => {
    const format = await post("/v1/images/generations", { model: "img-c-2", prompt: "p", response_format: "url" });
    expect(format.body.error).toMatchObject({ param: "response_format", code: "unknown_parameter" });
    const size = await post("/v1/images/generations", { model: "gpt-image-1", prompt: "p", size: "512x512" });
    expect(size.body.error).toMatchObject({ param: "size", code: "invalid_value" });
    const fidelity = await post("/v1/images/generations", { model: "img-c-2", prompt: "p", input_fidelity: "high" });
    expect(fidelity.body.error.param).toBe("input_fidelity");
  });

  it("play the safety system's refusal and an empty answer", async () => {
    const blocked = await post("/v1/images/generations", { model: "img-c-2", prompt: "[moderation] p" });
    expect(blocked.status).toBe(400);
    expect(blocked.body.error).toMatchObject({ code: "moderation_blocked", type: "image_generation_user_error" });
    const empty = await post("/v1/images/generations", { model: "img-c-2", prompt: "[empty] p" });
    expect(empty.body.data).toEqual([]);
  });
});

describe("the img-d- input.messages form", () => {
  it("reads the prompt and images from the messages and n from parameters", async () => {
    const { status, body } = await post("/v1/images/edits", {
      model: "img-d-edit-plus",
      input: {
        messages: [{ role: "user", content: [{ image: "https://example.com/a.png" }, { text: "add a lamp" }] }],
      },
      parameters: { n: 2 },
      response_format: "b64_json",
    });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(2);
    expect(body.usage.input_tokens_details).toEqual({ text_tokens: 3, image_tokens: 50 });
  });
});

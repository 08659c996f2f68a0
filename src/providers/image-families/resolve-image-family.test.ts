import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageRequestFields } from "../contract/image-request-fields.js";
import { resolveImageFamily } from "./resolve-image-family.js";

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const json = (body: Record<string, unknown>, task: ImageRequestFields["task"] = "generations"): ImageRequestFields => ({
  task,
  kind: "json",
  body,
  files: [],
});

function refusal(
  model: string,
  call: ImageRequestFields,
): { code: string; param: string | undefined; message: string } {
  try {
    resolveImageFamily(model, call, undefined);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    return { code: error.code, param: error.param, message: error.message };
  }
  throw new Error("the request was accepted");
}

describe("resolveImageFamily", () => {
  it("names the family of every seed model, and of a model priced per_image", () => {
    const name = (model: string, price?: { perImage: number }) =>
      resolveImageFamily(model, json({ prompt: "p" }), price).name;
    expect(name("gmx-2.5-flash-image")).toBe("gmx");
    expect(name("gmx-3-pro-image-preview")).toBe("gmx");
    expect(name("img-b-3-0-t2i-250415")).toBe("img-b");
    expect(name("img-b-4-0-250828")).toBe("img-b");
    expect(name("img-b-5-0-pro-260628")).toBe("img-b-pro");
    expect(name("img-c-2")).toBe("img-c");
    expect(name("dall-e-9", { perImage: 0.01 })).toBe("per-image");
    expect(
      resolveImageFamily(
        "img-d-plus",
        json({ input: { messages: [{ role: "user", content: [{ text: "p" }] }] } }),
        undefined,
      ).name,
    ).toBe("img-d");
  });

  it("refuses a model that is no image model with invalid_request", () => {
    expect(refusal("chat-model-1", json({ prompt: "p" }))).toMatchObject({ code: "invalid_request", param: "model" });
    expect(refusal("gmx-2.5-flash", json({ prompt: "p" })).code).toBe("invalid_request");
  });

  it.each([
    ["gmx-2.5-flash-image", { prompt: "  " }],
    ["img-b-4-0-250828", { prompt: "" }],
    ["img-b-5-0-pro-260628", {}],
    ["img-c-2", { prompt: "" }],
    ["img-d-plus", { input: { messages: [{ role: "user", content: [{ text: " " }] }] } }],
  ])("refuses an empty prompt for %s with invalid_request", (model, body) => {
    expect(refusal(model, json(body)).code).toBe("invalid_request");
  });

  it("takes the gmx- prompt from contents and ignores n above 10", () => {
    const body = {
      contents: [{ role: "user", parts: [{ text: "a cat" }, { image: `data:image/png;base64,${png}` }] }],
      n: 20,
    };
    const family = resolveImageFamily("gmx-2.5-flash-image", json(body), undefined);
    expect(family.maximumImages("gmx-2.5-flash-image", json(body))).toBe(1);
  });

  describe("img-b-", () => {
    it.each([
      ["img-b-3-0-t2i-250415", { size: "2048x2048" }, "size", /allowed: 1024x1024, 1152x864, .* or 1512x648/],
      ["img-b-4-0-250828", { size: "1024x1024" }, "size", /allowed: 2048x2048, .*4096x4096.* or 6240x2656/],
      ["img-b-4-5-251128", { size: "4097x4096" }, "size", /not supported by img-b-4-5-251128/],
      ["img-b-3-0-t2i-250415", { image: `data:image/png;base64,${png}` }, "image", /not supported/],
      ["img-b-edit-3-0-i2i-250628", {}, "image", /exactly one image; 0/],
      [
        "img-b-edit-3-0-i2i-250628",
        { image: ["https://a.example/1.png", "https://a.example/2.png"] },
        "image",
        /exactly one image; 2/,
      ],
      [
        "img-b-4-0-250828",
        { guidance_scale: 3 },
        "guidance_scale",
        /only img-b-3-0-t2i-250415 and img-b-edit-3-0-i2i-250628/,
      ],
      ["img-b-3-0-t2i-250415", { guidance_scale: 10.5 }, "guidance_scale", /1.0 to 10.0/],
      ["img-b-3-0-t2i-250415", { guidance_scale: 0.5 }, "guidance_scale", /1.0 to 10.0/],
      [
        "img-b-3-0-t2i-250415",
        { sequential_image_generation: "auto" },
        "sequential_image_generation",
        /only img-b-4-0/,
      ],
      [
        "img-b-4-0-250828",
        { sequential_image_generation: "auto", sequential_image_generation_options: { max_images: 5 } },
        "sequential_image_generation_options.max_images",
        /1 to 4/,
      ],
      [
        "img-b-4-0-250828",
        { sequential_image_generation_options: { max_images: 0 } },
        "sequential_image_generation_options.max_images",
        /1 to 4/,
      ],
      [
        "img-b-4-5-251128",
        { optimize_prompt_options: { mode: "fast" } },
        "optimize_prompt_options.mode",
        /allowed: standard \(fast is for img-b-4-0-250828 only\)/,
      ],
      [
        "img-b-3-0-t2i-250415",
        { optimize_prompt_options: { mode: "standard" } },
        "optimize_prompt_options",
        /only img-b-4-0/,
      ],
      ["img-b-4-0-250828", { seed: -1 }, "seed", /0 to 2147483647/],
      ["img-b-4-0-250828", { seed: 2147483648 }, "seed", /0 to 2147483647/],
      ["img-b-4-0-250828", { watermark: "no" }, "watermark", /true or false/],
    ])("%s refuses %j as invalid_parameter on %s", (model, extra, param, message) => {
      const refused = refusal(model, json({ prompt: "p", ...extra }));
      expect(refused).toMatchObject({ code: "invalid_parameter", param });
      expect(refused.message).toMatch(message);
    });

    it("accepts each model's own values and reserves max_images only in sequential mode", () => {
      const call = json({
        prompt: "p",
        size: "4096x4096",
        image: ["https://a.example/1.png", `data:image/png;base64,${png}`],
        sequential_image_generation: "auto",
        sequential_image_generation_options: { max_images: 3 },
        optimize_prompt_options: { mode: "fast" },
        seed: 2147483647,
        watermark: true,
      });
      const family = resolveImageFamily("img-b-4-0-250828", call, undefined);
      expect(family.maximumImages("img-b-4-0-250828", call)).toBe(3);
      const auto = json({ prompt: "p", sequential_image_generation: "auto" });
      expect(family.maximumImages("img-b-4-5-251128", auto)).toBe(4);
      expect(family.maximumImages("img-b-4-5-251128", json({ prompt: "p", n: 3 }))).toBe(1);
      resolveImageFamily(
        "img-b-3-0-t2i-250415",
        json({ prompt: "p", size: "1512x648", guidance_scale: 10 }),
        undefined,
      );
      resolveImageFamily("img-b-edit-3-0-i2i-250628", json({ prompt: "p", image: png, guidance_scale: 1 }), undefined);
    });

    it("refuses a reference that is no image as invalid_request", () => {
      expect(refusal("img-b-4-0-250828", json({ prompt: "p", image: "data:text/html;base64,PGI+" }))).toMatchObject({
        code: "invalid_request",
        param: "image",
      });
      expect(refusal("img-b-4-0-250828", json({ prompt: "p", image: ["not an image!"] })).code).toBe("invalid_request");
    });
  });

  describe("img-b-5-0-pro-260628", () => {
    const model = "img-b-5-0-pro-260628";
    it.each([
      [{ size: "4K" }, "size", /allowed: 1K, 2K or WIDTHxHEIGHT/],
      [{ size: "big" }, "size", /allowed/],
      [{ output_format: "webp" }, "output_format", /jpeg \(default\) or png/],
      [{ response_format: "file" }, "response_format", /url \(default\) or b64_json/],
    ])("refuses %j as invalid_parameter on %s", (extra, param, message) => {
      const refused = refusal(model, json({ prompt: "p", ...extra }));
      expect(refused).toMatchObject({ code: "invalid_parameter", param });
      expect(refused.message).toMatch(message);
    });
    it("reserves one image whatever n or the number of inputs", () => {
      const call = json({
        prompt: "p",
        n: 4,
        size: "2048x1536",
        images: ["https://a.example/1.png", "https://a.example/2.png"],
      });
      expect(resolveImageFamily(model, call, undefined).maximumImages(model, call)).toBe(1);
    });
  });

  describe("img-c-2", () => {
    it.each([
      [{ size: "512x512" }, "size", /allowed: 1024x1024, 1024x1536 or 1536x1024/],
      [{ quality: "hd" }, "quality", /allowed: low, medium or high/],
      [{ n: 11 }, "n", /1 to 10/],
      [{ n: 0 }, "n", /1 to 10/],
      [{ response_format: "url" }, "response_format", /only b64_json/],
      [{ input_fidelity: "high" }, "input_fidelity", /image-to-image only/],
    ])("refuses %j as invalid_parameter on %s", (extra, param, message) => {
      const refused = refusal("img-c-2", json({ prompt: "p", ...extra }));
      expect(refused).toMatchObject({ code: "invalid_parameter", param });
      expect(refused.message).toMatch(message);
    });
    it("takes input_fidelity with an image (JSON or multipart) and reserves n images", () => {
      const call = json({ prompt: "p", image: "https://a.example/1.png", input_fidelity: "high", n: 7 });
      expect(resolveImageFamily("img-c-2", call, undefined).maximumImages("img-c-2", call)).toBe(7);
      const form: ImageRequestFields = {
        task: "edits",
        kind: "multipart",
        body: { prompt: "p", n: "3", input_fidelity: "low" },
        files: [{ fieldname: "image[]" }],
      };
      expect(resolveImageFamily("img-c-2", form, undefined).maximumImages("img-c-2", form)).toBe(3);
    });
  });

  describe("img-d-", () => {
    const messages = (...content: Array<Record<string, unknown>>) => ({
      input: { messages: [{ role: "user", content }] },
    });
    const image = { image: "https://a.example/1.png" };
    it("requires input.messages", () => {
      expect(refusal("img-d-plus", json({ prompt: "p" }))).toMatchObject({
        code: "invalid_request",
        param: "input.messages",
      });
    });
    it.each([
      ["img-d-edit-plus", messages({ text: "p" }), "input.messages", /1 to 3 input images/],
      [
        "img-d-edit-plus",
        messages(image, image, image, image, { text: "p" }),
        "input.messages",
        /1 to 3 input images .*; 4 were given/,
      ],
      ["img-d-plus", messages(image, { text: "p" }), "input.messages", /text to image/],
      ["img-d-edit-plus", { ...messages(image, { text: "p" }), parameters: { n: 7 } }, "parameters.n", /1 to 6/],
      ["img-d-plus", { ...messages({ text: "p" }), parameters: { n: 2 } }, "parameters.n", /must be 1/],
      [
        "img-d-plus",
        { ...messages({ text: "p" }), parameters: { size: "1024x1024" } },
        "parameters.size",
        /width\*height/,
      ],
      ["img-d-plus", { ...messages({ text: "p" }), size: "1024x1024" }, "size", /parameters.size/],
      [
        "img-d-plus",
        { ...messages({ text: "p" }), response_format: "png" },
        "response_format",
        /url \(default\) or b64_json/,
      ],
    ])("%s refuses %j as invalid_parameter on %s", (model, body, param, message) => {
      const refused = refusal(model, json(body));
      expect(refused).toMatchObject({ code: "invalid_parameter", param });
      expect(refused.message).toMatch(message);
    });
    it("reserves parameters.n images", () => {
      const call = json({ ...messages(image, image, { text: "p" }), parameters: { n: 6, size: "1024*1024" } });
      expect(resolveImageFamily("img-d-edit-plus", call, undefined).maximumImages("img-d-edit-plus", call)).toBe(6);
    });
  });
});

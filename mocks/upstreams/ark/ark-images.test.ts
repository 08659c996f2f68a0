import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { FAKE_ARK_PNG } from "./handle-ark-image-generations.js";
import { startFakeArkServer } from "./start-fake-ark-server.js";

describe("fake ARK images", () => {
  let ark: FakeUpstream;
  beforeAll(async () => {
    ark = await startFakeArkServer({ apiKey: "ark-key", now: () => 1_767_225_600_000 });
  });
  afterAll(() => ark.close());
  beforeEach(() => ark.reset());

  const generate = (body: unknown, key = "ark-key", headers: Record<string, string> = {}) =>
    fetch(`${ark.url}/api/v3/images/generations`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("returns max_images hosted images in sequential mode, served on its own origin", async () => {
    const response = await generate({
      model: "seedream",
      prompt: "four seasons",
      size: "2K",
      sequential_image_generation: "auto",
      sequential_image_generation_options: { max_images: 3 },
      output_format: "png",
    });
    const answer = (await response.json()) as {
      created: number;
      data: Array<{ url: string; size: string }>;
      usage: unknown;
    };
    expect(answer.created).toBe(1_767_225_600);
    expect(answer.data).toHaveLength(3);
    expect(answer.data[0]!.size).toBe("2048x2048");
    expect(answer.usage).toEqual({ generated_images: 3, output_tokens: 3 * 4096, total_tokens: 3 * 4096 });
    const file = await fetch(answer.data[0]!.url);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(FAKE_ARK_PNG);
  });

  it("answers in ARK's envelope: bad key, bad size, safety block, injected 503", async () => {
    const unauthorized = await generate({ model: "m", prompt: "p" }, "wrong");
    expect(unauthorized.status).toBe(401);
    expect(((await unauthorized.json()) as { error: { code: string } }).error.code).toBe("AuthenticationError");
    const badSize = await generate({ model: "m", prompt: "p", size: "huge" });
    expect(badSize.status).toBe(400);
    expect(await badSize.json()).toMatchObject({
      error: { code: "InvalidParameter", param: "size", type: "BadRequest" },
    });
    const blocked = await generate({ model: "m", prompt: "[sensitive] p" });
    expect(await blocked.json()).toMatchObject({ error: { code: "InputTextSensitiveContentDetected" } });
    const unavailable = await generate({ model: "m", prompt: "p" }, "ark-key", { "x-fake-fault": '{"status":503}' });
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ error: { type: "InternalServerError" } });
  });

  it("returns an empty data list or failed group items when asked", async () => {
    expect(await (await generate({ model: "m", prompt: "[empty]" })).json()).toMatchObject({
      data: [],
      usage: { generated_images: 0 },
    });
    const partial = (await (
      await generate({
        model: "m",
        prompt: "[partial]",
        sequential_image_generation: "auto",
        sequential_image_generation_options: { max_images: 2 },
        response_format: "b64_json",
      })
    ).json()) as { data: Array<Record<string, unknown>>; usage: { generated_images: number } };
    expect(partial.data[1]).toEqual({
      error: expect.objectContaining({ code: "OutputImageSensitiveContentDetected" }),
    });
    expect(typeof partial.data[0]!.b64_json).toBe("string");
    expect(partial.usage.generated_images).toBe(1);
  });

  it("lists generation tasks (the channel test's read): an empty page for the key, 401 or 400 otherwise", async () => {
    const list = (query: string, key = "ark-key") =>
      fetch(`${ark.url}/api/v3/contents/generations/tasks${query}`, { headers: { authorization: `Bearer ${key}` } });
    const page = await list("?page_num=1&page_size=1");
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({ total: 0, items: [] });
    const unauthorized = await list("?page_num=1&page_size=1", "wrong");
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ error: { code: "AuthenticationError", type: "Unauthorized" } });
    const badPage = await list("?page_num=0&page_size=1");
    expect(badPage.status).toBe(400);
    expect(await badPage.json()).toMatchObject({ error: { code: "InvalidParameter", param: "page_num" } });
  });
});

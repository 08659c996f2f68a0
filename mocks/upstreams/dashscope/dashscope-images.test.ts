import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { FAKE_DASHSCOPE_PNG } from "./handle-dashscope-image-generation.js";
import { startFakeDashscopeServer } from "./start-fake-dashscope-server.js";

describe("fake DashScope image generation", () => {
  let dashscope: FakeUpstream;
  beforeAll(async () => {
    dashscope = await startFakeDashscopeServer({ apiKey: "ds-key" });
  });
  afterAll(() => dashscope.close());
  beforeEach(() => dashscope.reset());

  const generate = (body: unknown, key = "ds-key") =>
    fetch(`${dashscope.url}/api/v1/services/aigc/multimodal-generation/generation`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const messages = (...content: unknown[]) => ({ messages: [{ role: "user", content }] });

  it("answers choices with hosted image URLs and usage.image_count", async () => {
    const response = await generate({
      model: "qwen-image-edit-plus",
      input: messages({ image: "https://a.example/1.png" }, { text: "add a lamp" }),
      parameters: { n: 2, size: "1024*768" },
    });
    const answer = (await response.json()) as {
      output: { choices: Array<{ message: { content: Array<{ image: string }> } }> };
      usage: unknown;
    };
    expect(answer.output.choices).toHaveLength(2);
    expect(answer.usage).toEqual({ width: 1024, height: 768, image_count: 2 });
    const file = await fetch(answer.output.choices[0]!.message.content[0]!.image);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(FAKE_DASHSCOPE_PNG);
  });

  it("answers in DashScope's envelope: bad key, n out of range, inspection failure, no choices", async () => {
    const unauthorized = await generate({ model: "m", input: messages({ text: "p" }) }, "nope");
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: "InvalidApiKey", message: "Invalid API-key provided." });
    const tooMany = await generate({ model: "qwen-image-plus", input: messages({ text: "p" }), parameters: { n: 2 } });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: "InvalidParameter" });
    const blocked = await generate({ model: "m", input: messages({ text: "[sensitive]" }) });
    expect(await blocked.json()).toMatchObject({ code: "DataInspectionFailed" });
    const empty = await generate({ model: "m", input: messages({ text: "[empty]" }) });
    expect(await empty.json()).toMatchObject({ output: { choices: [] }, usage: { image_count: 0 } });
  });

  it("answers a task it does not hold (the channel test's read) with 200 UNKNOWN, and a bad key with 401", async () => {
    const poll = (key: string) =>
      fetch(`${dashscope.url}/api/v1/tasks/gateway-channel-test`, { headers: { authorization: `Bearer ${key}` } });
    const unknown = await poll("ds-key");
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({
      request_id: expect.any(String),
      output: { task_id: "gateway-channel-test", task_status: "UNKNOWN" },
    });
    const unauthorized = await poll("wrong");
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: "InvalidApiKey", request_id: expect.any(String) });
  });
});

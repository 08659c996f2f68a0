import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signBedrockRequest } from "../../../src/providers/bedrock/sign-bedrock-request.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { startFakeBedrockServer } from "./start-fake-bedrock-server.js";

const credential = {
  accessKeyId: "AKIAFAKEACCESSKEY0002",
  secretAccessKey: "fakeSecret0123456789abcdefghijklmnopqrstu",
};
let bedrock: FakeUpstream;
beforeAll(async () => {
  bedrock = await startFakeBedrockServer({ credential, region: "eu-west-1" });
});
afterAll(() => bedrock.close());

async function converse(options: { key?: string; region?: string; now?: Date; tamper?: boolean }) {
  const path = "/model/amazon.nova-pro-v1%3A0/converse";
  const body = JSON.stringify({ messages: [{ role: "user", content: [{ text: "hello" }] }] });
  const headers = await signBedrockRequest({
    baseUrl: bedrock.url,
    path,
    body,
    region: options.region ?? "eu-west-1",
    key: options.key ?? `${credential.accessKeyId}:${credential.secretAccessKey}`,
    headers: { "content-type": "application/json", accept: "application/json" },
    ...(options.now ? { now: options.now } : {}),
  });
  const answer = await request(`${bedrock.url}${path}`, {
    method: "POST",
    headers,
    body: options.tamper ? body.replace("hello", "HELLO") : body,
  });
  return {
    status: answer.statusCode,
    type: String(answer.headers["x-amzn-errortype"] ?? "").split(":")[0],
    body: (await answer.body.json()) as { message?: string; output?: unknown },
  };
}

describe("the fake Bedrock Runtime", () => {
  it("accepts a request signed with the right secret for its region", async () => {
    const answer = await converse({});
    expect(answer.status).toBe(200);
    expect(answer.body.output).toEqual({ message: { role: "assistant", content: [{ text: "Echo: hello" }] } });
  });

  it("refuses a wrong secret, a changed body, another region and a stale signature, as AWS does", async () => {
    expect(await converse({ key: `${credential.accessKeyId}:wrongSecret0123456789abcdefghijklmnopqr` })).toMatchObject({
      status: 403,
      type: "InvalidSignatureException",
    });
    expect((await converse({ tamper: true })).type).toBe("InvalidSignatureException");
    expect((await converse({ region: "us-east-1" })).type).toBe("InvalidSignatureException");
    const stale = await converse({ now: new Date(Date.now() - 10 * 60_000) });
    expect([stale.status, stale.type]).toEqual([403, "InvalidSignatureException"]);
    expect(stale.body.message).toMatch(/^Signature expired/);
    expect((await converse({ key: "AKIAOTHERACCESSKEY999:whatever" })).type).toBe("UnrecognizedClientException");
    expect((await converse({ key: "not-an-aws-key" })).type).toBe("AccessDeniedException");
  });
});

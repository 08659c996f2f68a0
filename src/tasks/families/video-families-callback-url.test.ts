import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { findVideoModelFamily } from "../find-video-model-family.js";

const noFetch = async (): Promise<never> => {
  throw new Error("nothing is downloaded here");
};

/** The smallest valid submission of one model of each family. */
const submissions: Record<string, Record<string, unknown>> = {
  "vid-a-2": { model: "vid-a-2", prompt: "a lighthouse" },
  "vid-b-3.1-fast-generate-preview": { model: "vid-b-3.1-fast-generate-preview", prompt: "a lighthouse" },
  "vid-c2.5-t2v-preview": { model: "vid-c2.5-t2v-preview", prompt: "a lighthouse" },
  "vid-d-2-0": { model: "vid-d-2-0", metadata: { content: [{ type: "text", text: "a lighthouse" }] } },
  "vid-e-1-5-pro-251215": {
    model: "vid-e-1-5-pro-251215",
    metadata: { content: [{ type: "text", text: "a lighthouse" }] },
  },
};

const prepare = (model: string, callbackUrl: string) => {
  const body = submissions[model] as Record<string, unknown>;
  const metadata = { ...(body.metadata as object | undefined), callback_url: callbackUrl };
  const family = findVideoModelFamily(model);
  if (family === undefined) throw new Error(`no family for ${model}`);
  return family.prepare({ body: { ...body, metadata }, files: [] }, { fetchImage: noFetch });
};

/** Every family offers callbacks the same way: the address checked at submission, then kept with the task. */
describe.each(Object.keys(submissions))("%s and metadata.callback_url", (model) => {
  it("keeps a checked callback address with the task", async () => {
    const submission = await prepare(model, "https://client.example.com/hooks/video");
    expect(submission.keep).toMatchObject({ callback_url: "https://client.example.com/hooks/video" });
  });

  it("refuses an address that can never be called, naming the field", async () => {
    for (const bad of ["ftp://client.example.com/hook", "not a url", "https://user:secret@client.example.com/"])
      await expect(prepare(model, bad)).rejects.toSatisfy(
        (error) => error instanceof InvalidRequestError && error.param === "metadata.callback_url",
      );
  });
});

import type { components } from "../../../generated/types/native.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";

type ListNativeModelsResponse = components["schemas"]["ListNativeModelsResponse"];
type NativeModel = components["schemas"]["NativeModel"];

/** The spec's default for pageSize. */
export const DEFAULT_MODEL_PAGE_SIZE = 50;

/**
 * One page of the models a key may call, in the native list shape. Paging is by name: the token is the last name
 * of the previous page (base64url), so a page boundary stays put when models are added or removed meanwhile.
 * The gateway knows names only, so the methods are inferred from the name: embedding models embed, the rest
 * generate (the upstream decides in the end).
 */
export function buildNativeModelsPage(
  models: readonly string[],
  options: { pageSize?: number; pageToken?: string },
): ListNativeModelsResponse {
  const sorted = [...models].sort();
  const after = options.pageToken ? decodePageToken(options.pageToken) : undefined;
  const remaining = after === undefined ? sorted : sorted.filter((model) => model > after);
  const pageSize = options.pageSize ?? DEFAULT_MODEL_PAGE_SIZE;
  const page = remaining.slice(0, pageSize);
  const body: ListNativeModelsResponse = { models: page.map(describeModel) };
  if (remaining.length > pageSize) body.nextPageToken = Buffer.from(page.at(-1)!, "utf8").toString("base64url");
  return body;
}

function describeModel(id: string): NativeModel {
  const embeds = /embedding/i.test(id);
  return {
    name: `models/${id}`,
    baseModelId: id,
    displayName: id,
    supportedGenerationMethods: embeds
      ? ["embedContent", "batchEmbedContents"]
      : ["generateContent", "streamGenerateContent"],
  };
}

function decodePageToken(token: string): string {
  const name = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, "base64url").toString("utf8") : "";
  if (name === "")
    throw new InvalidRequestError("pageToken is not a token this list returned.", { param: "pageToken" });
  return name;
}

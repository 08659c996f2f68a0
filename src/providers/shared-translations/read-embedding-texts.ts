import type { components } from "../../../generated/types/openai.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";

type EmbeddingRequest = components["schemas"]["CreateEmbeddingRequest"];

/** The input as a list of texts; refuses token ids. */
export function readEmbeddingTexts(input: EmbeddingRequest["input"]): string[] {
  if (typeof input === "string") return [input];
  if (input.every((item): item is string => typeof item === "string")) return input;
  throw new InvalidRequestError(
    "input as token ids is not supported for this model; send the text as a string or an array of strings.",
    {
      param: "input",
    },
  );
}

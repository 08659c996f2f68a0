import type { components } from "../../../generated/types/native.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";

type GenerateContentRequest = components["schemas"]["GenerateContentRequest"];

/** The only model that takes structured speech direction in parts (the product documents, "Native generation"). */
export const SPEECH_METADATA_MODEL = "gmx-3.8-flash-tts";
/** The speech model that takes a single user turn only. */
export const SINGLE_TURN_SPEECH_MODEL = "gmx-3.1-flash-tts-preview";

/**
 * Speech rules the product documents state, checked before any quota is held or upstream called, so a client hears
 * the same 400 whichever upstream would have answered. The rules apply to the model name the client sent (the
 * documented family names); an operator who renames a speech model through model_mapping keeps the upstream's own
 * checks.
 */
export function assertNativeSpeechRules(model: string, request: GenerateContentRequest): void {
  if (model === SINGLE_TURN_SPEECH_MODEL && request.contents.length > 1) {
    throw new InvalidRequestError("multi-turn chat not enabled for this model", { param: "contents" });
  }
  if (model === SPEECH_METADATA_MODEL) return;
  for (const [contentIndex, content] of request.contents.entries()) {
    const partIndex = (content.parts ?? []).findIndex((part) => part.speech_metadata !== undefined);
    if (partIndex >= 0) {
      throw new InvalidRequestError(
        `contents[${contentIndex}].parts[${partIndex}].speech_metadata is supported only by ${SPEECH_METADATA_MODEL}, not by ${model}; put style instructions in the text instead.`,
        { param: `contents[${contentIndex}].parts[${partIndex}].speech_metadata` },
      );
    }
  }
}

import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { mapNativeFinishReason } from "../chat/map-native-finish-reason.js";

type ResponseObject = OpenaiComponents["schemas"]["ResponseObject"];

/**
 * How a native candidate ended, as a Responses status: a limit or a filter makes the response `incomplete` with the
 * reason (`max_output_tokens`, `content_filter`), anything else `completed` (tool calls included) with null details.
 */
export function mapNativeFinishToResponsesStatus(
  finishReason: string | undefined,
  options: { hasToolCalls: boolean; blocked: boolean },
): Pick<ResponseObject, "status" | "incomplete_details"> {
  if (options.blocked) return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  switch (mapNativeFinishReason(finishReason ?? "STOP", { hasToolCalls: options.hasToolCalls })) {
    case "length":
      return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
    case "content_filter":
      return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
    default:
      return { status: "completed", incomplete_details: null };
  }
}

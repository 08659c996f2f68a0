import type { GatewayError } from "../errors/gateway-error.js";
import type { ApiGeneration } from "./api-generation.js";
import { anthropicErrorType } from "./anthropic-error-type.js";
import { nativeErrorStatus } from "./native-error-status.js";

/** The one place that knows the four error envelopes (Anthropic's names the request in its body). */
export function renderErrorBody(generation: ApiGeneration, error: GatewayError, requestId?: string): unknown {
  switch (generation) {
    case "anthropic":
      return {
        type: "error",
        error: { type: anthropicErrorType(error.status), message: error.message },
        request_id: requestId ?? null,
      };
    case "management":
      return { success: false, message: error.message };
    case "openai":
      return { error: { message: error.message, type: error.type, code: error.code, param: error.param ?? null } };
    case "native":
      return { error: { code: error.status, message: error.message, status: nativeErrorStatus(error.status) } };
  }
}

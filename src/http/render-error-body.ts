import type { GatewayError } from "../errors/gateway-error.js";
import type { ApiGeneration } from "./api-generation.js";
import { nativeErrorStatus } from "./native-error-status.js";

/** The one place that knows the three error envelopes. */
export function renderErrorBody(generation: ApiGeneration, error: GatewayError): unknown {
  switch (generation) {
    case "management":
      return { success: false, message: error.message };
    case "openai":
      return { error: { message: error.message, type: error.type, code: error.code, param: error.param ?? null } };
    case "native":
      return { error: { code: error.status, message: error.message, status: nativeErrorStatus(error.status) } };
  }
}

import { InvalidRequestError } from "../errors/gateway-error.js";

/** The 400 for a missing or misshapen structure (metadata, media, content): code `invalid_request`, naming the field. */
export function createInvalidVideoRequest(field: string, message: string): InvalidRequestError {
  return new InvalidRequestError(message, { code: "invalid_request", param: field });
}

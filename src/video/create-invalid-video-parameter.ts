import { InvalidRequestError } from "../errors/gateway-error.js";

/**
 * The 400 for a value outside a family's range: code `invalid_parameter`, naming the field, the allowed values and
 * the model, in the video API's documented example form ("seconds must be one of 4, 8, 12 for vid-a-2.").
 */
export function createInvalidVideoParameter(field: string, allowed: string, model: string): InvalidRequestError {
  return new InvalidRequestError(`${field} must be ${allowed} for ${model}.`, {
    code: "invalid_parameter",
    param: field,
  });
}

import { InvalidRequestError } from "../../errors/gateway-error.js";

/**
 * The images API's documented 400 `invalid_parameter`: a value the model refuses, the message naming the field and
 * what it takes.
 */
export function invalidImageParameter(field: string, message: string): InvalidRequestError {
  return new InvalidRequestError(message, { code: "invalid_parameter", param: field });
}

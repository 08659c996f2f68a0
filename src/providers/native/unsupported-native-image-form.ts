import { InvalidRequestError } from "../../errors/invalid-request-error.js";

/** The native image family has no multipart or mask form: its requests are JSON with an `image` field. */
export function unsupportedNativeImageForm(model: string): InvalidRequestError {
  return new InvalidRequestError(
    `multipart/form-data and mask are not supported for ${model}; send JSON with an image field.`,
  );
}

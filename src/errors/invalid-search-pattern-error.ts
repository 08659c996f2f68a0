import { InvalidRequestError } from "./invalid-request-error.js";

export class InvalidSearchPatternError extends InvalidRequestError {
  constructor(message: string) {
    super(message, { code: "invalid_search_pattern", param: "token" });
  }
}

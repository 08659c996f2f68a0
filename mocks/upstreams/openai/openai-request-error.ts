/** A client error the fake answers in OpenAI's envelope; handlers throw it, the router renders it. */
export class OpenaiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = "invalid_request_error",
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

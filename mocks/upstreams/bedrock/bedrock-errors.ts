/** Bedrock's error answer: the exception's name in `x-amzn-errortype`, `{message}` in the body. */
export interface BedrockError {
  status: number;
  type: string;
  message: string;
}

export function renderBedrockStatusError(status: number, message?: string): object {
  return { message: message ?? describeStatus(status) };
}

export function bedrockErrorFor(status: number): BedrockError {
  const type =
    status === 429
      ? "ThrottlingException"
      : status === 403
        ? "AccessDeniedException"
        : status === 503
          ? "ServiceUnavailableException"
          : status >= 500
            ? "InternalServerException"
            : "ValidationException";
  return { status, type, message: describeStatus(status) };
}

function describeStatus(status: number): string {
  switch (status) {
    case 429:
      return "Too many requests, please wait before trying again.";
    case 403:
      return "You don't have access to the model with the specified model ID.";
    case 503:
      return "Bedrock is unable to process your request.";
    default:
      return status >= 500 ? "The server encountered an internal error." : "Malformed input request.";
  }
}

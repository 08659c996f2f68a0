/** The fields of an `{error: {code, message, param, …}}` envelope (OpenAI's and ARK's) an image error is built from. */
export interface ErrorEnvelopeFields {
  code?: string;
  /** The message, else the code, else "unknown error". */
  message: string;
  param?: string;
}

/** Reads an `{error: {code, message, param, …}}` body; undefined when the body is not JSON or carries no error object. */
export function readErrorEnvelope(bodyText: string): ErrorEnvelopeFields | undefined {
  let parsed: { error?: { code?: unknown; message?: unknown; param?: unknown } };
  try {
    parsed = JSON.parse(bodyText) as typeof parsed;
  } catch {
    return undefined;
  }
  const error = parsed?.error;
  if (typeof error !== "object" || error === null) return undefined;
  const code = typeof error.code === "string" ? error.code : undefined;
  return {
    ...(code ? { code } : {}),
    message: typeof error.message === "string" ? error.message : (code ?? "unknown error"),
    ...(typeof error.param === "string" ? { param: error.param } : {}),
  };
}

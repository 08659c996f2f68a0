interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/**
 * True for a request-validator refusal on an image endpoint that is about a parameter's value (a range, an enum, a
 * pattern, a type): the image document calls that 400 `invalid_parameter`. A missing or malformed `model` or
 * `prompt`, a missing required field or a body that is no object stays `invalid_request`.
 */
export function isImageParameterError(path: string, rawError: unknown): boolean {
  if (!path.startsWith("/v1/images/")) return false;
  const items = (rawError as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(items) || items.length === 0) return false;
  return (items as ValidatorErrorItem[]).every((item) => {
    const field = (item.path ?? "").replace(/^\/body\/?/, "");
    if (field === "" || field === "model" || field === "prompt") return false;
    return !/required/i.test(`${item.errorCode ?? ""} ${item.message ?? ""}`);
  });
}

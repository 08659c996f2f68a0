import { GatewayError } from "../errors/gateway-error.js";

interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: ValidatorErrorItem[];
  headers?: Record<string, string>;
  expose?: boolean;
}

const defaultCodes = new Map<number, string>([
  [400, "invalid_request"],
  [401, "invalid_authentication"],
  [402, "insufficient_quota"],
  [403, "permission_denied"],
  [404, "not_found"],
  [405, "method_not_allowed"],
  [413, "payload_too_large"],
  [415, "unsupported_media_type"],
  [429, "rate_limit_exceeded"],
  [500, "internal_error"],
]);

/** Turns a validator error's `path` such as `/body/messages/0/role` into `messages[0].role`. */
function toFieldName(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const segments = path.split("/").filter((segment) => segment.length > 0);
  if (["body", "query", "params", "headers", "path"].includes(segments[0] ?? "")) segments.shift();
  if (segments.length === 0) return undefined;
  return segments.reduce(
    (name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment),
    "",
  );
}

const allowedValuesIntroduction = "must be equal to one of the allowed values: ";

/**
 * The validator lists an enum's allowed values joined by ", ", where `null` becomes an empty entry (a message ending
 * in ", "); the list is rewritten with `null` named.
 */
function describeAllowedValues(message: string): string {
  if (!message.startsWith(allowedValuesIntroduction)) return message;
  const values = message.slice(allowedValuesIntroduction.length).split(", ");
  const named = values.filter((value) => value !== "");
  if (named.length < values.length) named.push("null");
  return `${allowedValuesIntroduction}${named.join(", ")}`;
}

function describeValidatorErrors(items: ValidatorErrorItem[]): string {
  return items
    .map((item) => {
      const field = toFieldName(item.path);
      const text = item.message ?? "is invalid";
      const message = item.errorCode === "enum.openapi.validation" ? describeAllowedValues(text) : text;
      return field ? `${field} ${message}` : message;
    })
    .join("; ");
}

/**
 * Every error that reaches a generation's error handler becomes a GatewayError here: our own typed errors pass
 * through; the validator's and the body parser's are given a status, a code and a message naming the field.
 */
export function normalizeError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const httpError = (error ?? {}) as HttpLikeError;
  const status = httpError.status ?? httpError.statusCode;
  if (typeof status !== "number" || status < 400 || status > 599) {
    return new GatewayError("Internal server error.", { status: 500, code: "internal_error", cause: error });
  }
  if (httpError.type === "entity.too.large") {
    return new GatewayError("Request body is larger than the size limit.", {
      status: 413,
      code: "payload_too_large",
      cause: error,
    });
  }
  if (httpError.type === "entity.parse.failed") {
    return new GatewayError("Request body is not valid JSON.", { status: 400, code: "invalid_json", cause: error });
  }
  if (status >= 500) {
    return new GatewayError("Internal server error.", { status, code: "internal_error", cause: error });
  }
  const items = Array.isArray(httpError.errors) ? httpError.errors : [];
  const message = items.length > 0 ? describeValidatorErrors(items) : (httpError.message ?? "Invalid request.");
  const param = items.length > 0 ? toFieldName(items[0]?.path) : undefined;
  return new GatewayError(status === 405 ? `${message}` : message, {
    status,
    code: defaultCodes.get(status) ?? "invalid_request",
    ...(param ? { param } : {}),
    cause: error,
  });
}

import { shortenClientValue } from "./shorten-client-value.js";

// The gateway's one error family: GatewayError and every error it raises on purpose, one class per kind of refusal
// or failure, each fixing its HTTP status and code. One middleware per API surface renders them in that surface's
// envelope (upstream failures, src/upstream/upstream-failure.ts, are GatewayErrors too).

/**
 * Maps an HTTP status to the OpenAI-style `error.type` string, so callers only
 * need to name a type when it differs from what the status already implies.
 */
export function deriveErrorType(status: number): string {
  switch (status) {
    case 400:
    case 404:
    case 409:
    case 413:
    case 415:
    case 422:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "insufficient_quota";
    case 403:
      return "permission_error";
    case 429:
      return "rate_limit_error";
    case 502:
    case 503:
    case 504:
      return "upstream_error";
    default:
      return status >= 500 ? "server_error" : "invalid_request_error";
  }
}

export interface GatewayErrorOptions {
  /** HTTP status the envelope middleware answers with. */
  status: number;
  /** Machine-readable code, e.g. `invalid_request`. */
  code: string;
  /** OpenAI-style error type; derived from the status when omitted. */
  type?: string;
  /** Request field the error is about, when there is one. */
  param?: string;
  cause?: unknown;
}

/**
 * Base of every error the gateway raises on purpose. One middleware per API
 * generation maps it to that generation's envelope, so handlers never build
 * error bodies themselves.
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly param: string | undefined;

  constructor(
    message: string,
    readonly options: GatewayErrorOptions,
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.type = options.type ?? deriveErrorType(options.status);
    this.param = options.param;
  }
}

export interface InvalidRequestErrorOptions {
  code?: string;
  param?: string;
  cause?: unknown;
}

export class InvalidRequestError extends GatewayError {
  constructor(message: string, options: InvalidRequestErrorOptions = {}) {
    super(message, { ...options, status: 400, code: options.code ?? "invalid_request" });
  }
}

export class InvalidAllowListError extends InvalidRequestError {
  /** The offending entry, trimmed, exactly as the user wrote it. */
  readonly entry: string;

  constructor(entry: string) {
    super(`invalid IP allow-list entry "${entry}": expected an IPv4 or IPv6 address or CIDR range`, {
      code: "invalid_allow_ips",
      param: "allow_ips",
    });
    this.entry = entry;
  }
}

export class InvalidSearchPatternError extends InvalidRequestError {
  constructor(message: string) {
    super(message, { code: "invalid_search_pattern", param: "token" });
  }
}

/**
 * A text the request gave holds the NUL character (U+0000), which PostgreSQL's text cannot hold or compare. A
 * management request is refused before its handler on both databases (refuse-unstorable-text.ts); elsewhere
 * PostgreSQL refuses the statement whole, nothing written. Text that comes from an upstream is stripped of it before
 * it is stored (storableText), so this is always the caller's input.
 */
export class UnstorableTextError extends InvalidRequestError {
  /** `param`: the field holding it, where known (refuse-unstorable-text.ts); a refused statement cannot tell. */
  constructor(options: { param?: string; cause?: unknown } = {}) {
    super(`${options.param ?? "Text"} must not contain the NUL character (\\u0000).`, {
      ...options,
      code: "invalid_text",
    });
  }
}

export class AuthenticationError extends GatewayError {
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 401, code: options.code ?? "invalid_authentication" });
  }
}

export class InsufficientQuotaError extends GatewayError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 402, code: "insufficient_quota" });
  }
}

export class PermissionError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 403, code: options.code ?? "permission_denied" });
  }
}

/**
 * A served model the operator gave no price: refused before anything is reserved or sent upstream, or its usage
 * would be free on every key (`pricing.allow_unpriced: true` opts out).
 */
export class UnpricedModelError extends PermissionError {
  constructor(model: string) {
    super(
      `model ${shortenClientValue(model)} has no price: the administrator has not priced it, so it cannot be used.`,
      { code: "model_not_priced", param: "model" },
    );
  }
}

export class NotFoundError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 404, code: options.code ?? "not_found" });
  }
}

const noAvailableChannelMessage = (model: string) => `no available channel for model ${shortenClientValue(model)}`;

/**
 * A model some channel of the caller's groups serves, but none can take the request now (every one disabled):
 * 503 with Retry-After, so a client retries later. A model nobody serves is a ModelNotFoundError instead.
 */
export class NoAvailableChannelError extends GatewayError {
  readonly model: string;
  readonly retryAfterSeconds: number;

  constructor(model: string, options: { retryAfterSeconds: number; cause?: unknown }) {
    super(noAvailableChannelMessage(model), {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      status: 503,
      code: "no_available_channel",
    });
    this.model = shortenClientValue(model);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * No channel of any group the caller may use serves the model: a client's mistake (a typo, a placeholder), so a
 * 404 that OpenAI-style clients do not retry, with the same message text.
 */
export class ModelNotFoundError extends NotFoundError {
  readonly model: string;

  constructor(model: string) {
    super(noAvailableChannelMessage(model), { code: "model_not_found", param: "model" });
    this.model = shortenClientValue(model);
  }
}

/** The request is fine but clashes with what exists (a name taken, also by a concurrent request). */
export class ConflictError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 409, code: options.code ?? "conflict" });
  }
}

/** A request body past the size limit (the same words the body parser's refusal gets). */
export class PayloadTooLargeError extends GatewayError {
  constructor() {
    super("Request body is larger than the size limit.", { status: 413, code: "payload_too_large" });
  }
}

export class RateLimitError extends GatewayError {
  /** Seconds the client should wait; the envelope middleware sends it as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: { retryAfterSeconds?: number; code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? "rate_limit_exceeded", status: 429, cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The client closed its connection before the answer was complete. Ordinary traffic, not a fault: there is no one
 * left to answer, so it is logged at info with its request id and counted apart from the answered requests. The
 * status is the one proxies use for it (499, "client closed request"); it is never sent.
 */
export class ClientGoneError extends GatewayError {
  constructor() {
    super("The client disconnected before the answer was complete.", {
      status: 499,
      code: "client_closed_request",
    });
  }
}

/** A setting the gateway cannot run with; raised at startup, never caused by a client. */
export class ConfigurationError extends GatewayError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 500, code: "configuration_error", type: "server_error" });
  }
}

/**
 * A stored key could not be decrypted: it was altered, is malformed, or was
 * written under another GATEWAY_SECRET. Deliberately says nothing more.
 */
export class KeyDecryptionError extends GatewayError {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(`stored key cannot be decrypted: ${reason}`, {
      ...options,
      status: 500,
      code: "key_decryption_failed",
      type: "server_error",
    });
  }
}

/**
 * The database could not be reached or did not answer in time (a lost connection, a timeout, a server restarting).
 * The request fails with 503 in its surface's envelope and may be retried; the process carries on, and the pool
 * replaces the connection.
 */
export class DatabaseUnavailableError extends GatewayError {
  constructor(options: { cause?: unknown } = {}) {
    super("The database is unavailable; retry the request shortly.", {
      ...options,
      status: 503,
      code: "database_unavailable",
    });
  }
}

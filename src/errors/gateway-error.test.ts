import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  GatewayError,
  InsufficientQuotaError,
  InvalidAllowListError,
  InvalidRequestError,
  ModelNotFoundError,
  NoAvailableChannelError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  UnpricedModelError,
} from "./gateway-error.js";

describe("GatewayError and its subclasses", () => {
  it("exposes status, code, derived type, param and cause", () => {
    const cause = new Error("root");
    const error = new GatewayError("boom", { status: 400, code: "invalid_request", param: "model", cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      message: "boom",
      status: 400,
      code: "invalid_request",
      type: "invalid_request_error",
      param: "model",
    });
    expect(error.cause).toBe(cause);
    expect(error.options.status).toBe(400);
    expect(error.name).toBe("GatewayError");
  });

  it("lets an explicit type win over the derived one", () => {
    expect(new GatewayError("x", { status: 400, code: "c", type: "custom" }).type).toBe("custom");
  });

  it.each([
    [new InvalidRequestError("m"), 400, "invalid_request", "invalid_request_error", "InvalidRequestError"],
    [new AuthenticationError("m"), 401, "invalid_authentication", "authentication_error", "AuthenticationError"],
    [new InsufficientQuotaError("m"), 402, "insufficient_quota", "insufficient_quota", "InsufficientQuotaError"],
    [new PermissionError("m"), 403, "permission_denied", "permission_error", "PermissionError"],
    [new NotFoundError("m"), 404, "not_found", "invalid_request_error", "NotFoundError"],
    [new RateLimitError("m"), 429, "rate_limit_exceeded", "rate_limit_error", "RateLimitError"],
    [
      new NoAvailableChannelError("gpt-x", { retryAfterSeconds: 30 }),
      503,
      "no_available_channel",
      "upstream_error",
      "NoAvailableChannelError",
    ],
    [new ModelNotFoundError("gpt-x"), 404, "model_not_found", "invalid_request_error", "ModelNotFoundError"],
    [new UnpricedModelError("gpt-x"), 403, "model_not_priced", "permission_error", "UnpricedModelError"],
  ])("%s maps to %i %s", (error, status, code, type, name) => {
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status, code, type, name });
  });

  it("carries the extras of the specific errors", () => {
    expect(new RateLimitError("slow down", { retryAfterSeconds: 7 }).retryAfterSeconds).toBe(7);
    expect(new NoAvailableChannelError("gpt-4o", { retryAfterSeconds: 30 })).toMatchObject({
      message: "no available channel for model gpt-4o",
      retryAfterSeconds: 30,
    });
    expect(new ModelNotFoundError("gpt-4o").message).toBe("no available channel for model gpt-4o");
    expect(new UnpricedModelError("gpt-4o").message).toBe(
      "model gpt-4o has no price: the administrator has not priced it, so it cannot be used.",
    );
    expect(new InvalidRequestError("m", { code: "name_too_long", param: "name" })).toMatchObject({
      code: "name_too_long",
      param: "name",
    });
    expect(new InvalidAllowListError("x")).toBeInstanceOf(InvalidRequestError);
  });
});

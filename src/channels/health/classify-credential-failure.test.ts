import { describe, expect, it } from "vitest";
import { classifyCredentialFailure } from "./classify-credential-failure.js";

describe("classifyCredentialFailure", () => {
  it.each([
    [401, '{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}', "unauthorized"],
    [403, '{"error":{"message":"Permission denied"}}', "forbidden"],
    [402, "{}", "insufficient_balance"],
    [400, '{"error":{"message":"Insufficient Balance"}}', "insufficient_balance"],
    [
      400,
      '{"code":"Arrearage","message":"Access denied, please make sure your account is in good standing."}',
      "insufficient_balance",
    ],
    [404, '{"error":{"message":"The model `gpt-9` does not exist","code":"model_not_found"}}', "model_not_found"],
    [404, '{"error":{"code":404,"message":"models/gmx-9 is not found for API version v1beta"}}', "model_not_found"],
  ] as const)("reads %i %s as %s", (status, body, reason) => {
    expect(classifyCredentialFailure(status, body)).toBe(reason);
  });

  it.each([
    [429, '{"error":{"message":"Rate limit reached"}}'],
    [429, '{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}'],
    [500, '{"error":{"message":"Invalid API key"}}'],
    [503, "overloaded"],
    [400, '{"error":{"message":"messages must not be empty"}}'],
    [404, '{"error":{"message":"No such route"}}'],
  ] as const)("leaves %i %s to the cooldown or the client", (status, body) => {
    expect(classifyCredentialFailure(status, body)).toBeUndefined();
  });
});

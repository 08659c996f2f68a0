import { describe, expect, it } from "vitest";
import { computeCallbackRetryDelays } from "./compute-callback-retry-delays.js";
import { signCallbackBody } from "./sign-callback-body.js";

describe("signCallbackBody", () => {
  const body = '{"code":"success","data":{"id":"task_1"}}';

  it("is sha256= and the hex HMAC-SHA256 of '<timestamp>.<raw body>' keyed by the secret (as openssl computes it)", () => {
    // printf '%s' '1767225600.<body>' | openssl dgst -sha256 -hmac 'whsec_test-secret'
    expect(signCallbackBody("whsec_test-secret", 1767225600, body)).toBe(
      "sha256=a47f67d1b3e8753061c88ccd342fae8d8f88fec00ae99a017b26d0e8a9a0c197",
    );
  });

  it("changes with the timestamp, the body and the secret", () => {
    const signature = signCallbackBody("whsec_test-secret", 1767225600, body);
    expect(signCallbackBody("whsec_test-secret", 1767225601, body)).not.toBe(signature);
    expect(signCallbackBody("whsec_test-secret", 1767225600, `${body} `)).not.toBe(signature);
    expect(signCallbackBody("whsec_other", 1767225600, body)).not.toBe(signature);
  });
});

describe("computeCallbackRetryDelays", () => {
  it("doubles from the configured backoff, one wait fewer than tries", () => {
    expect(computeCallbackRetryDelays(1000, 6)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(computeCallbackRetryDelays(250, 5)).toEqual([250, 500, 1000, 2000]);
    expect(computeCallbackRetryDelays(1000, 1)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { isImageParameterError } from "./is-image-parameter-error.js";

const validatorError = (...items: Array<{ path: string; message: string; errorCode?: string }>) => ({
  status: 400,
  errors: items,
});

describe("isImageParameterError", () => {
  it("calls a value the schema refuses on an image endpoint a parameter error", () => {
    expect(
      isImageParameterError(
        "/v1/images/generations",
        validatorError({
          path: "/body/sequential_image_generation_options/max_images",
          message: "must be <= 4",
          errorCode: "maximum.openapi.validation",
        }),
      ),
    ).toBe(true);
    expect(
      isImageParameterError("/v1/images/edits", validatorError({ path: "/body/seed", message: "must be integer" })),
    ).toBe(true);
  });

  it("leaves missing fields, model, prompt and other endpoints as invalid requests", () => {
    expect(
      isImageParameterError(
        "/v1/images/generations",
        validatorError({ path: "/body/model", message: "must be string" }),
      ),
    ).toBe(false);
    expect(
      isImageParameterError(
        "/v1/images/generations",
        validatorError({
          path: "/body/input/messages",
          message: "must have required property 'messages'",
          errorCode: "required.openapi.validation",
        }),
      ),
    ).toBe(false);
    expect(
      isImageParameterError(
        "/v1/chat/completions",
        validatorError({ path: "/body/temperature", message: "must be <= 2" }),
      ),
    ).toBe(false);
    expect(isImageParameterError("/v1/images/generations", new Error("boom"))).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { isApiPath } from "./is-api-path.js";

describe("isApiPath", () => {
  it("claims every path under the API prefixes, and the prefixes themselves", () => {
    for (const path of ["/api", "/api/token/", "/v1", "/v1/chat/completions", "/v1beta/models", "/llm-api/x"])
      expect([path, isApiPath(path)]).toEqual([path, true]);
  });

  it("leaves the console its pages, even those that only start like an API prefix", () => {
    for (const path of ["/", "/tokens", "/usage", "/apis", "/v1x", "/v1betas/x", "/assets/index-abc.js"])
      expect([path, isApiPath(path)]).toEqual([path, false]);
  });
});

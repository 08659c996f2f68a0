import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { memoizeValidatorRouteMatching } from "./memoize-validator-route-matching.js";

describe("memoizeValidatorRouteMatching", () => {
  it("makes the validator's pathToRegexp return one compiled route per route and options, matching as before", () => {
    memoizeValidatorRouteMatching();
    const requireFromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
    const { pathToRegexp } = requireFromValidator("path-to-regexp") as {
      pathToRegexp: (path: string, options?: object) => { regexp: RegExp; keys: Array<{ name: string }> };
    };
    const first = pathToRegexp("/api/token/:id", { sensitive: false, strict: false });
    expect(pathToRegexp("/api/token/:id", { sensitive: false, strict: false })).toBe(first);
    expect(pathToRegexp("/api/token/:id", { sensitive: true, strict: false })).not.toBe(first);
    expect(first.regexp.exec("/api/token/42")?.[1]).toBe("42");
    expect(first.keys.map((key) => key.name)).toEqual(["id"]);
    const colon = pathToRegexp("/v1beta/models/:model\\:generateContent", { sensitive: false, strict: false });
    expect(colon.regexp.exec("/v1beta/models/gmx-3.5-flash:generateContent")?.[1]).toBe("gmx-3.5-flash");
  });
});

import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/gateway-error.js";
import { parseCorsOrigins } from "./parse-cors-origins.js";

describe("parseCorsOrigins", () => {
  it("is off when empty or unset", () => {
    expect(parseCorsOrigins(undefined)).toBeUndefined();
    expect(parseCorsOrigins(" , ")).toBeUndefined();
  });

  it("reads origins in the form a browser sends them, and * for the model APIs", () => {
    expect(parseCorsOrigins("HTTPS://App.Example.com/, http://localhost:5173,*")).toEqual({
      anyOriginForModelApis: true,
      listed: new Set(["https://app.example.com", "http://localhost:5173"]),
    });
    expect(parseCorsOrigins("https://app.example.com:443")?.listed).toEqual(new Set(["https://app.example.com"]));
  });

  it("refuses what is not an origin", () => {
    for (const entry of ["app.example.com", "ftp://app.example.com", "https://app.example.com/path", "https://a@b.c"])
      expect(() => parseCorsOrigins(entry)).toThrow(ConfigurationError);
    expect(() => parseCorsOrigins("app.example.com")).toThrow(
      'CORS_ORIGINS: "app.example.com" is not an origin (scheme://host[:port]) or *.',
    );
  });
});

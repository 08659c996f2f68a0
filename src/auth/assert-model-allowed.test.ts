import { describe, expect, it } from "vitest";
import { PermissionError } from "../errors/gateway-error.js";
import { resolveModelName } from "../models/resolve-model-name.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import { apiKeyMessages } from "./api-key-messages.js";
import { assertModelAllowed } from "./assert-model-allowed.js";

function tokenWith(fields: Pick<TokenRecord, "modelLimitsEnabled" | "modelLimits">): TokenRecord {
  return {
    id: 1,
    userId: 1,
    name: "t",
    keyHash: "h",
    keyEncrypted: "e",
    status: 1,
    remainQuota: 0,
    usedQuota: 0,
    unlimitedQuota: true,
    allowIps: "",
    group: "",
    crossGroupRetry: false,
    rpmLimit: 0,
    tpmLimit: 0,
    expiredTime: -1,
    createdTime: 0,
    accessedTime: 0,
    ...fields,
  };
}

describe("assertModelAllowed", () => {
  it("allows a thinking variant resolved to a listed base model, and nothing else by prefix", () => {
    const token = tokenWith({ modelLimitsEnabled: true, modelLimits: "gmx-2.5-flash,kimi-k2,gem-pro" });
    const variant = (model: string) =>
      resolveModelName(model, { pricing: {}, scope: "any-model", isServed: () => false });
    expect(() => assertModelAllowed(token, variant("gmx-2.5-flash-thinking-1024"))).not.toThrow();
    expect(() => assertModelAllowed(token, variant("gmx-2.5-flash-nothinking"))).not.toThrow();
    expect(() => assertModelAllowed(token, variant("gem-pro-thinking-low"))).not.toThrow();
    // A name read as listed: another family's -thinking name is a model of its own.
    expect(() => assertModelAllowed(token, "gem-pro-thinking-low")).toThrow(PermissionError);
    expect(() => assertModelAllowed(token, "gmx-2.5-flash-lite")).toThrow(PermissionError);
    expect(() => assertModelAllowed(token, "kimi-k2-thinking")).toThrow(PermissionError);
  });

  it("lets any model through while model limits are off, whatever the list says", () => {
    expect(() => assertModelAllowed(tokenWith({ modelLimitsEnabled: false, modelLimits: "" }), "gpt-4o")).not.toThrow();
    expect(() =>
      assertModelAllowed(tokenWith({ modelLimitsEnabled: false, modelLimits: "gmx-2.5-flash" }), "gpt-4o"),
    ).not.toThrow();
  });

  it("lets listed models through when limits are on, ignoring spaces around names", () => {
    const token = tokenWith({ modelLimitsEnabled: true, modelLimits: "gpt-4o-mini, gmx-2.5-flash ,gmx-3.5-flash" });
    for (const model of ["gpt-4o-mini", "gmx-2.5-flash", "gmx-3.5-flash"])
      expect(() => assertModelAllowed(token, model)).not.toThrow();
  });

  it("refuses an unlisted model with a 403 naming it", () => {
    const token = tokenWith({ modelLimitsEnabled: true, modelLimits: "gpt-4o-mini,gmx-2.5-flash" });
    let thrown: unknown;
    try {
      assertModelAllowed(token, "gpt-4o");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PermissionError);
    expect(thrown).toMatchObject({
      status: 403,
      code: "model_not_allowed",
      param: "model",
      message: apiKeyMessages.modelNotAllowed("gpt-4o"),
    });
    expect((thrown as Error).message).toContain("gpt-4o");
  });

  it("matches whole names exactly: no prefixes, substrings or case folding", () => {
    const token = tokenWith({ modelLimitsEnabled: true, modelLimits: "gmx-2.5-flash" });
    for (const model of ["gmx-2.5", "gmx-2.5-flash-lite", "GMX-2.5-FLASH", "mx-2.5-flash", ""]) {
      expect(() => assertModelAllowed(token, model), model).toThrow(PermissionError);
    }
  });

  it("refuses every model when limits are on and the list is empty", () => {
    const token = tokenWith({ modelLimitsEnabled: true, modelLimits: "" });
    expect(() => assertModelAllowed(token, "gpt-4o")).toThrow(PermissionError);
    expect(() => assertModelAllowed(token, "")).toThrow(PermissionError);
  });
});

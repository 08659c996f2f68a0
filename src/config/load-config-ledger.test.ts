import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/gateway-error.js";
import { loadConfig } from "./load-config.js";

const loadWith = (margin?: string) =>
  loadConfig({
    DATABASE_URL: "sqlite::memory:",
    GATEWAY_SECRET: "test-secret-0123456789abcdef",
    ...(margin === undefined ? {} : { DATABASE_LEDGER_DEFER_HOLDS_MARGIN: margin }),
  });

describe("DATABASE_LEDGER_DEFER_HOLDS_MARGIN", () => {
  it("is 100 by default, 0 turns deferred holds off, and a negative margin is refused by name", () => {
    expect(loadWith().databaseLedgerDeferHoldsMargin).toBe(100);
    expect(loadWith("0").databaseLedgerDeferHoldsMargin).toBe(0);
    expect(loadWith("250").databaseLedgerDeferHoldsMargin).toBe(250);
    expect(() => loadWith("-1")).toThrow(ConfigurationError);
    expect(() => loadWith("-1")).toThrow(/DATABASE_LEDGER_DEFER_HOLDS_MARGIN must be a whole number/);
  });
});

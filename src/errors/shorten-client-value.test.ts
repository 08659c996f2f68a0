import { describe, expect, it } from "vitest";
import { shortenClientValue } from "./shorten-client-value.js";

describe("shortenClientValue", () => {
  it("keeps short values and cuts long ones to a prefix that says how long they were", () => {
    expect(shortenClientValue("gpt-4o-mini")).toBe("gpt-4o-mini");
    const cut = shortenClientValue("m".repeat(1024 * 1024));
    expect(cut).toBe(`${"m".repeat(64)}… (1048576 characters)`);
  });
});

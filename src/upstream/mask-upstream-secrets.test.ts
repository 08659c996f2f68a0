import { describe, expect, it } from "vitest";
import { maskUpstreamSecrets } from "./mask-upstream-secrets.js";

describe("maskUpstreamSecrets", () => {
  const ourKey = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl";

  it("masks the channel's own keys, whatever their shape", () => {
    expect(maskUpstreamSecrets("bad key upstream-secret-1 given", ["upstream-secret-1"])).toBe(
      "bad key upst**********et-1 given",
    );
  });

  it("masks key-shaped text: sk- keys, our bare 48-character form, AIza keys, bearer tokens", () => {
    const text = `Incorrect API key provided: sk-${ourKey}. Also ${ourKey}, AIzaSyA1234567890abcdefghijklmnop and Bearer abc.def.ghi-123`;
    const masked = maskUpstreamSecrets(text, []);
    expect(masked).not.toContain(ourKey);
    expect(masked).not.toContain("AIzaSyA1234567890abcdefghijklmnop");
    expect(masked).not.toContain("abc.def.ghi-123");
    expect(masked).toContain("Incorrect API key provided: sk-A**********ijkl.");
  });

  it("leaves ordinary messages alone", () => {
    const message = "The model `gpt-4o` does not exist or you do not have access to it.";
    expect(maskUpstreamSecrets(message, ["secret-key"])).toBe(message);
  });
});

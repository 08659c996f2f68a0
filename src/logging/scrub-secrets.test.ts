import { describe, expect, it } from "vitest";
import { generateApiKey } from "../keys/generate-api-key.js";
import { scrubSecrets } from "./scrub-secrets.js";

describe("scrubSecrets", () => {
  it("masks both forms of a full key: sk-… and the bare 48 characters", () => {
    const bare = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl";
    const line = JSON.stringify({ msg: `key sk-${bare} and ${bare} again`, other: `"${bare}"` });
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toContain(bare);
    expect(scrubbed).toContain("sk-AbCd**********ijkl");
    expect(scrubbed).toContain(" AbCd**********ijkl again");
  });

  it("masks generated keys and leaves ordinary lines alone", () => {
    const key = generateApiKey();
    expect(scrubSecrets(`{"key":"${key}"}`)).not.toContain(key.slice(3));
    const ordinary = '{"level":30,"msg":"gateway listening","requestId":"req-0123456789abcdef"}';
    expect(scrubSecrets(ordinary)).toBe(ordinary);
  });
});

describe("scrubSecrets on other key shapes", () => {
  it("masks Google-style keys and bearer credentials quoted in a line", () => {
    const google = "AIzaSyD0123456789abcdefghijklmnopqrstu";
    const line = `{"msg":"API key not valid. Key given: ${google}","detail":"Authorization: Bearer tok_0123456789abcdef"}`;
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toContain(google.slice(4));
    expect(scrubbed).not.toContain("0123456789abcdef");
    expect(scrubbed).toContain("Bearer tok_**********");
  });
});

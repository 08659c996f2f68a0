import { describe, expect, it } from "vitest";
import { generateApiKey } from "./generate-api-key.js";

describe("generateApiKey", () => {
  it("is sk- followed by 48 alphanumeric characters", () => {
    for (let round = 0; round < 200; round += 1) {
      expect(generateApiKey()).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    }
  });

  it("never repeats and uses the whole alphabet roughly evenly", () => {
    const keys = new Set<string>();
    const counts = new Map<string, number>();
    for (let round = 0; round < 2000; round += 1) {
      const key = generateApiKey();
      keys.add(key);
      for (const character of key.slice(3)) counts.set(character, (counts.get(character) ?? 0) + 1);
    }
    expect(keys.size).toBe(2000);
    expect(counts.size).toBe(62);
    // 96,000 draws over 62 symbols: about 1548 each; a biased or truncated alphabet would stray far.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1300);
      expect(count).toBeLessThan(1800);
    }
  });
});

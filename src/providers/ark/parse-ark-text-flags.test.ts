import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { parseArkTextFlags } from "./parse-ark-text-flags.js";

const field = "metadata.content[0].text";

describe("parseArkTextFlags", () => {
  it.each([
    ["--rs 720p", "resolution", "720p"],
    ["--resolution 1080p", "resolution", "1080p"],
    ["--ratio 9:16", "ratio", "9:16"],
    ["--rt 4:3", "ratio", "4:3"],
    ["--dur 6", "duration", "6"],
    ["--duration 7", "duration", "7"],
    ["--frames 121", "frames", "121"],
    ["--fps 30", "framespersecond", "30"],
    ["--framespersecond 24", "framespersecond", "24"],
    ["--seed -1", "seed", "-1"],
    ["--wm true", "watermark", "true"],
    ["--watermark false", "watermark", "false"],
    ["--cf true", "camerafixed", "true"],
    ["--camerafixed false", "camerafixed", "false"],
  ])("reads %s as %s", (flag, name, value) => {
    const parsed = parseArkTextFlags(`A fox in snow ${flag}`, field);
    expect(parsed.prompt).toBe("A fox in snow");
    expect(parsed.flags.get(name as never)?.value).toBe(value);
    expect(parsed.flags.get(name as never)?.spelled).toBe(flag.split(" ")[0]);
  });

  it("takes every flag out of the prompt wherever it stands, and leaves unknown --words and dashes in the text", () => {
    const parsed = parseArkTextFlags("--rs 480p A cat--the best cat --mood calm jumps --dur 4 --seed 11", field);
    expect(parsed.prompt).toBe("A cat--the best cat --mood calm jumps");
    expect([...parsed.flags.keys()]).toEqual(["resolution", "duration", "seed"]);
  });

  it("refuses a flag without a value and a flag given twice under two spellings", () => {
    expect(() => parseArkTextFlags("A cat --dur", field)).toThrow(InvalidRequestError);
    expect(() => parseArkTextFlags("A cat --dur --rs 720p", field)).toThrow("--dur needs a value");
    expect(() => parseArkTextFlags("A cat --rs 720p --resolution 480p", field)).toThrow(
      "metadata.content[0].text: --resolution is given twice (also as --rs).",
    );
  });
});

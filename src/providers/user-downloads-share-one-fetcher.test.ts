import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const sourceRoot = path.resolve(import.meta.dirname, "..");

function listSources(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "testing" ? [] : listSources(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Files (relative to src/) whose code, not comments, calls `name(`. */
function callersOf(name: string): string[] {
  return listSources(sourceRoot)
    .filter((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .some(
          (line) =>
            line.includes(`${name}(`) && !/^\s*(\/\*|\*|\/\/)/.test(line) && !line.includes(`function ${name}(`),
        ),
    )
    .map((file) => path.relative(sourceRoot, file))
    .sort();
}

/**
 * Every download a user names (chat media, reference images of image and video requests, result images) goes through
 * the fetchers of ProviderServices, built once from the operator's fetch.allow_private; a fetcher built anywhere
 * else would miss the allow-list (video references once did).
 */
describe("user-named downloads", () => {
  it("are fetched only by the fetchers createProviderServices builds", () => {
    expect(callersOf("createSafeFetcher")).toEqual([
      "providers/create-provider-services.ts",
      "providers/native/shared/create-native-media-fetcher.ts",
    ]);
    expect(callersOf("createNativeMediaFetcher")).toEqual(["providers/create-provider-services.ts"]);
  });
});

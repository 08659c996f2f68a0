import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectRoot } from "./find-project-root.js";

describe("createGatewayServer", () => {
  // V8 keeps an object in dictionary mode when it was built with too little room for its properties (a response
  // made by calling Node's constructor on a plain function's `this`) or when an object literal has a getter; such
  // objects are larger and slower on every property access. The check needs V8's natives syntax, so it
  // runs in a child process started with --allow-natives-syntax.
  it("gives requests, responses and the relay's per-request objects fast properties and one shape each", () => {
    const root = findProjectRoot();
    const output = execFileSync(
      process.execPath,
      ["--allow-natives-syntax", "--import", "tsx", path.join(root, "test/support/report-hot-object-shapes.ts")],
      { cwd: root, encoding: "utf8", timeout: 60_000 },
    );
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toEqual({
      responsesAreFast: true,
      requestsAreFast: true,
      responsesShareOneShape: true,
      requestsShareOneShape: true,
      responsesHaveTheAppPrototype: true,
      sseWriterIsFast: true,
      collectingControllerIsFast: true,
      openRelayRegistryIsFast: true,
      commitWindowIsFast: true,
      nativeToResponsesTransformIsFast: true,
      nativeToResponsesTransformsShareOneShape: true,
      nativeToChatTransformIsFast: true,
      nativeToChatTransformsShareOneShape: true,
    });
  });
});

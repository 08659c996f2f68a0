import type { NativeVideoOperation } from "./native-video-operation-types.js";

/** The URIs of the samples an operation produced, in order. */
export function listNativeVideoFiles(operation: NativeVideoOperation): string[] {
  return (operation.response?.generateVideoResponse?.generatedSamples ?? [])
    .map((sample) => sample.video?.uri)
    .filter((uri): uri is string => typeof uri === "string" && uri !== "");
}

export interface ArkVideoModel {
  family: "vid-d" | "vid-e";
  /** vid-e variants differ in resolutions, durations, image roles and flags; vid-d is one kind. */
  variant: "lite-t2v" | "lite-i2v" | "pro-1.0" | "pro-1.5" | "vid-d-2.0";
  /** vid-e-1-5-pro-…-noAudio: the same upstream model asked for silent video. */
  silent: boolean;
  /** vid-d-2-0-fast has no 1080p. */
  fast: boolean;
  resolutions: readonly string[];
  defaultResolution: string;
  /** Smallest and largest whole seconds; vid-d also takes -1 (the upstream chooses). */
  minimumSeconds: number;
  maximumSeconds: number;
}

/** The documented video families ARK serves, told apart by their model ids; undefined for a model of neither. */
export function describeArkVideoModel(model: string): ArkVideoModel | undefined {
  const silent = /-noaudio$/i.test(model);
  if (model.startsWith("vid-e-1-5-pro")) return vidE("pro-1.5", silent, ["480p", "720p"], "720p", 4, 12);
  if (model.startsWith("vid-e-1-0-lite-t2v")) return vidE("lite-t2v", silent, allResolutions, "720p", 2, 12);
  if (model.startsWith("vid-e-1-0-lite-i2v")) return vidE("lite-i2v", silent, allResolutions, "720p", 2, 12);
  if (model.startsWith("vid-e-1-0-pro")) return vidE("pro-1.0", silent, allResolutions, "1080p", 2, 12);
  if (model.startsWith("vid-d-2-0")) {
    const fast = model.startsWith("vid-d-2-0-fast");
    return {
      family: "vid-d",
      variant: "vid-d-2.0",
      silent,
      fast,
      resolutions: fast ? ["480p", "720p"] : allResolutions,
      defaultResolution: "720p",
      minimumSeconds: 4,
      maximumSeconds: 15,
    };
  }
  return undefined;
}

const allResolutions = ["480p", "720p", "1080p"] as const;

function vidE(
  variant: ArkVideoModel["variant"],
  silent: boolean,
  resolutions: readonly string[],
  defaultResolution: string,
  minimumSeconds: number,
  maximumSeconds: number,
): ArkVideoModel {
  return {
    family: "vid-e",
    variant,
    silent,
    fast: false,
    resolutions,
    defaultResolution,
    minimumSeconds,
    maximumSeconds,
  };
}

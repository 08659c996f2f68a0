export interface NativeVideoModel {
  /** Only 3.1 takes a last frame (first-and-last-frame mode). */
  takesLastFrame: boolean;
  /** The fast models always make audio, whatever the request says. */
  alwaysWithAudio: boolean;
}

/** The documented vid-b models, told apart by their ids; undefined for a model outside the family. */
export function describeNativeVideoModel(model: string): NativeVideoModel | undefined {
  if (!model.startsWith("vid-b-")) return undefined;
  return { takesLastFrame: model.startsWith("vid-b-3.1"), alwaysWithAudio: model.includes("-fast-") };
}

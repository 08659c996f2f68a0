import type { Channel } from "../channels/channel.js";
import { nativeVideoTasks } from "../providers/native/native-video-tasks.js";
import { openaiVideoTasks } from "../providers/openai/openai-video-tasks.js";
import type { VideoTaskCapability } from "./video-task-capability.js";

/** The video task capability of a channel's protocol, if it has one. */
export function findVideoTaskCapability(channel: Pick<Channel, "type">): VideoTaskCapability | undefined {
  switch (channel.type) {
    case "openai":
      return openaiVideoTasks;
    case "native":
      return nativeVideoTasks;
    default:
      return undefined;
  }
}

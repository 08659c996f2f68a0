import type { operations } from "../../../generated/types/openai.js";
import type { GatewayContext } from "../../gateway-context.js";
import { completeHandlerMap } from "../../http/complete-handler-map.js";
import type { OperationHandlerMap } from "../../http/operation-handler.js";
import { pendingOperations } from "../../http/pending-operations.js";
import { createAudioHandlers } from "./audio-handlers.js";
import { createImageHandlers } from "./image-handlers.js";
import { createTextHandlers } from "./text-handlers.js";
import type { VideoTaskService } from "../../tasks/video-task-service.js";
import { createVideoHandlers } from "./video-handlers.js";

export function createOpenaiHandlers(
  context: GatewayContext,
  videoTasks: VideoTaskService,
): OperationHandlerMap<operations> {
  return completeHandlerMap<operations, (typeof pendingOperations.openai)[number]>(
    {
      ...createTextHandlers(context),
      ...createAudioHandlers(context),
      ...createImageHandlers(context),
      ...createVideoHandlers(videoTasks),
    },
    pendingOperations.openai,
  );
}

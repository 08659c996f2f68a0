import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import type { operations } from "../../../generated/types/openai.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { withoutInjectedDefaults } from "../../http/client-body-fields.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import {
  renderOpenaiVideo,
  renderVideoTaskDetail,
  renderVideoTaskPlain,
  renderVideoTaskSubmission,
} from "../../tasks/render/render-video-task.js";
import { sendVideoContent } from "../../tasks/render/send-video-content.js";
import type { UploadedVideoFile } from "../../tasks/video-model-family.js";
import type { VideoTaskService } from "../../tasks/video-task-service.js";
import { getAuthenticatedToken } from "../../users/authenticated-request.js";

type VideoOperation =
  | "submitVideoGeneration"
  | "getVideoGeneration"
  | "getVideoGenerationViaQueryBase"
  | "downloadVideoGeneration"
  | "createVideo"
  | "getVideo"
  | "getVideoContent"
  | "remixVideo";

/** The most video bytes the inline download (base64 in JSON) holds; larger videos stream from /content. */
const maximumInlineVideoBytes = 64 * 1024 * 1024;

function readHeader(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The body as the validator left it: JSON as sent, or multipart text fields (files are in `request.files`). */
function readSubmission(
  request: Request,
  response: Response,
): { body: Record<string, unknown>; files: UploadedVideoFile[] } {
  return {
    // The family rules apply their own defaults (vid-b: 1080p; vid-c: metadata.parameters over the top level), so
    // they must see what the client sent, not the spec's generic defaults the validator wrote in.
    body: { ...withoutInjectedDefaults((request.body ?? {}) as Record<string, unknown>, response) },
    files: (request.files as UploadedVideoFile[] | undefined) ?? [],
  };
}

/**
 * The video endpoints: thin handlers over the task service. Every task read is scoped to the caller's
 * user (another user's id is 404) and none is billed.
 */
export function createVideoHandlers(videoTasks: VideoTaskService): Record<VideoOperation, OperationHandler> {
  const submitWith =
    (render: (task: Parameters<typeof renderOpenaiVideo>[0]) => unknown): OperationHandler =>
    async (request, response) => {
      const { body, files } = readSubmission(request, response);
      // The validator leaves a placeholder under a file part's name; the file itself is in `files`.
      for (const file of files) delete body[file.fieldname];
      await videoTasks.submit(request, response, {
        body,
        files,
        traceId: readHeader(request, "x-trace-id"),
        idempotencyKey: readHeader(request, "idempotency-key"),
        render,
      });
    };

  const readTask = (request: Request, response: Response, name = "task_id") =>
    videoTasks.findForUser(readPathParameter(request, name), getAuthenticatedToken(response).userId, {
      refresh: true,
    });

  const queryGeneration: OperationHandler = async (request, response) => {
    const task = await readTask(request, response);
    const query = request.query as QueryParameters<operations["getVideoGeneration"]>;
    if (query.format === "plain") {
      response.json(renderVideoTaskPlain(task));
      return;
    }
    response.json(renderVideoTaskDetail(task, await videoTasks.listCallbackDeliveries(task)));
  };

  return {
    submitVideoGeneration: submitWith(renderVideoTaskSubmission),
    createVideo: submitWith(renderOpenaiVideo),
    getVideoGeneration: queryGeneration,
    getVideoGenerationViaQueryBase: queryGeneration,

    async getVideo(request, response) {
      response.json(renderOpenaiVideo(await readTask(request, response)));
    },

    async remixVideo(request, response) {
      const source = await videoTasks.findForUser(
        readPathParameter(request, "task_id"),
        getAuthenticatedToken(response).userId,
        { refresh: false },
      );
      const sourceRequest = (source.requestBody ?? {}) as { seconds?: string; size?: string };
      const { prompt } = request.body as { prompt: string };
      await videoTasks.submit(request, response, {
        body: {
          model: source.model,
          prompt,
          remix_from_video_id: source.id,
          ...(sourceRequest.seconds === undefined ? {} : { seconds: sourceRequest.seconds }),
          ...(sourceRequest.size === undefined ? {} : { size: sourceRequest.size }),
        },
        files: [],
        traceId: readHeader(request, "x-trace-id"),
        idempotencyKey: readHeader(request, "idempotency-key"),
        render: renderOpenaiVideo,
      });
    },

    async getVideoContent(request, response) {
      const query = request.query as QueryParameters<operations["getVideoContent"]>;
      if (query.variant !== undefined && query.variant !== "video")
        throw new InvalidRequestError("Only variant=video is served.", { param: "variant" });
      await sendVideoContent(response, await videoTasks.openContent(await readTask(request, response)));
    },

    async downloadVideoGeneration(request, response) {
      const query = request.query as QueryParameters<operations["downloadVideoGeneration"]>;
      const task = await videoTasks.findForUser(query.id, getAuthenticatedToken(response).userId, { refresh: true });
      const content = await videoTasks.openContent(task);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of content.body) {
        size += (chunk as Buffer).length;
        if (size > maximumInlineVideoBytes) {
          content.body.destroy();
          throw new UpstreamFailure(
            `The video is larger than ${maximumInlineVideoBytes} bytes; fetch it from /v1/videos/${task.id}/content.`,
            false,
            { status: 502, code: "video_too_large" },
          );
        }
        chunks.push(chunk as Buffer);
      }
      const base64 = Buffer.concat(chunks).toString("base64");
      response.json({
        success: true,
        generation_id: `gen_${randomBytes(12).toString("hex")}`,
        task_id: task.id,
        format: "mp4",
        size,
        base64,
        data_url: `data:video/mp4;base64,${base64}`,
      });
    },
  };
}

import type { NativeEndpoints } from "../native/shared/native-endpoints.js";
import { readVertexLocation } from "./vertex-settings.js";

/** Vertex AI's paths of Google's models: under the channel's project and region, publisher `google`. */
export const vertexEndpoints: NativeEndpoints = {
  modelMethod(attempt, model, method) {
    const { projectId, region } = readVertexLocation(attempt);
    return `/v1/projects/${encodeURIComponent(projectId)}/locations/${encodeURIComponent(region)}/publishers/google/models/${encodeURIComponent(model)}:${method}`;
  },
};

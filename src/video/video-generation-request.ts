import type { components } from "../../generated/types/openai.js";

/** The submit body of `/v1/video/generations` as the client sent it (no validator defaults written in). */
export type VideoGenerationRequest = components["schemas"]["VideoGenerationRequest"];

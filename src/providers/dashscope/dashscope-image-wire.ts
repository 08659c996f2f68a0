/** DashScope synchronous multimodal image generation, `POST /api/v1/services/aigc/multimodal-generation/generation`. */
export interface DashscopeImageRequest {
  model: string;
  input: { messages: Array<{ role: string; content: Array<{ text: string } | { image: string }> }> };
  parameters?: Record<string, unknown>;
}

/** The answer, read tolerantly (the sync answer says `task_metric`, the async ones `task_metrics`). */
export interface DashscopeImageAnswer {
  output?: {
    choices?: Array<{
      finish_reason?: string;
      message?: { role?: string; content?: Array<{ image?: string; text?: string }> };
    }>;
    code?: string;
    message?: string;
  };
  usage?: { width?: number; height?: number; image_count?: number };
  request_id?: string;
  code?: string;
  message?: string;
}

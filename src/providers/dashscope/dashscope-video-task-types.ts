// Wire shapes of the DashScope asynchronous video synthesis API (UPSTREAM-PROTOCOLS.md §3): minimal and tolerant.

/** `POST /api/v1/services/aigc/video-generation/video-synthesis` body (sent with `X-DashScope-Async: enable`). */
export interface DashScopeVideoRequestBody {
  model: string;
  input: { prompt?: string; img_url?: string; audio_url?: string; media?: unknown[]; [field: string]: unknown };
  parameters: { [field: string]: unknown };
}

/** The submit answer and every `GET /api/v1/tasks/{task_id}` answer. */
export interface DashScopeTaskAnswer {
  request_id?: string;
  output?: {
    task_id?: string;
    task_status?: string;
    submit_time?: string;
    scheduled_time?: string;
    end_time?: string;
    orig_prompt?: string;
    actual_prompt?: string;
    video_url?: string;
    code?: string;
    message?: string;
  };
  usage?: {
    SR?: number;
    duration?: number;
    video_count?: number;
    input_video_duration?: number;
    output_video_duration?: number;
    video_duration?: number;
    [field: string]: unknown;
  };
  /** Synchronous errors: `{code, message, request_id}` at the top. */
  code?: string;
  message?: string;
}

// Wire shapes of the ark content-generation task API (UPSTREAM-PROTOCOLS.md §5a): minimal and tolerant.

export type ArkContentItem =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string }; role?: string }
  | { type: string; [field: string]: unknown };

/** `POST /api/v3/contents/generations/tasks` body; keys the gateway does not know are forwarded as the client sent them. */
export interface ArkCreateTaskBody {
  model: string;
  content: ArkContentItem[];
  resolution?: string;
  ratio?: string;
  duration?: number;
  generate_audio?: boolean;
  return_last_frame?: boolean;
  [field: string]: unknown;
}

/** `GET /api/v3/contents/generations/tasks/{id}` answer (and the body of the provider's own callbacks). */
export interface ArkTaskAnswer {
  id?: string;
  model?: string;
  status?: string;
  content?: { video_url?: string; last_frame_url?: string };
  usage?: { completion_tokens?: number; total_tokens?: number };
  error?: { code?: string; message?: string } | null;
  created_at?: number;
  updated_at?: number;
  seed?: number;
  resolution?: string;
  ratio?: string;
  duration?: number;
  frames?: number;
  framespersecond?: number;
  generate_audio?: boolean;
}

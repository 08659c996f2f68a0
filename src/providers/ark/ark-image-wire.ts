/** The ARK (Seedream) image generation wire format, `POST /api/v3/images/generations`: only what we send or read. */
export interface ArkImageRequest {
  model: string;
  prompt: string;
  image?: string | string[];
  size?: string;
  seed?: number;
  guidance_scale?: number;
  /** Sent explicitly: the provider's own default is true, the image document's is false. */
  watermark: boolean;
  response_format?: "url" | "b64_json";
  output_format?: string;
  sequential_image_generation?: "auto" | "disabled";
  sequential_image_generation_options?: { max_images?: number };
  optimize_prompt_options?: { mode?: string };
}

/** The answer, read tolerantly: the official examples say `created`, the SDK model `created_at`. */
export interface ArkImageAnswer {
  model?: string;
  created?: number;
  created_at?: number;
  data?: Array<{ url?: string; b64_json?: string; size?: string; error?: { code?: string; message?: string } }>;
  usage?: { generated_images?: number; output_tokens?: number; total_tokens?: number };
}

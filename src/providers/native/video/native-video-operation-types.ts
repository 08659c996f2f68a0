// Wire shapes of the native long-running video API (UPSTREAM-PROTOCOLS.md §2): minimal and tolerant.

export interface NativeVideoImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

/** `POST /v1beta/models/{model}:predictLongRunning` body. */
export interface NativeVideoRequestBody {
  instances: Array<{ prompt: string; image?: NativeVideoImage; lastFrame?: NativeVideoImage }>;
  parameters: {
    aspectRatio: string;
    durationSeconds: number;
    resolution: string;
    personGeneration: string;
    sampleCount: number;
    generateAudio: boolean;
    fps?: number;
    addWatermark?: boolean;
    seed?: number;
  };
}

/** The submit answer and every `GET /v1beta/{name}` answer: a google.longrunning Operation. */
export interface NativeVideoOperation {
  name?: string;
  done?: boolean;
  metadata?: unknown;
  error?: { code?: number; message?: string; status?: string };
  response?: {
    generateVideoResponse?: {
      generatedSamples?: Array<{ video?: { uri?: string; encodedVideo?: string; encoding?: string } }>;
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}

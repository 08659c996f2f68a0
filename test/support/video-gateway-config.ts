/** 0.1 USD per second = 50,000 units per second: 4 s = 200,000, 8 s = 400,000. */
export const videoUnitsPerSecond = 50_000;

/** GATEWAY_CONFIG for vid-a-2 on one OpenAI video channel (mapped to sora-2), polled every `poll_interval_ms`. */
export function videoGatewayConfig(upstreamUrl: string, tasks: Record<string, number> = {}) {
  return {
    channels: [
      {
        name: "videos",
        type: "openai",
        base_url: upstreamUrl,
        key: "openai-secret",
        models: ["vid-a-2"],
        model_mapping: { "vid-a-2": "sora-2" },
      },
    ],
    pricing: { "vid-a-2": { per_second: 0.1 } },
    tasks: { poll_interval_ms: 40, max_concurrent_polls: 8, ...tasks },
  };
}

/**
 * GATEWAY_CONFIG for vid-b-3.1 on one native video channel (mapped to veo-3.1), polled every 40 ms, callbacks retried
 * after `callbackBackoffMs` doubling, private addresses allowed for the test's callback receiver on 127.0.0.1.
 */
export function nativeVideoGatewayConfig(nativeUrl: string, callbackBackoffMs: number) {
  return {
    channels: [
      {
        name: "native-video",
        type: "native",
        base_url: nativeUrl,
        key: "native-secret",
        models: ["vid-b-3.1-fast-generate-preview"],
        model_mapping: { "vid-b-3.1-fast-generate-preview": "veo-3.1-fast-generate-preview" },
      },
    ],
    pricing: { "vid-b-3.1-fast-generate-preview": { per_second: 0.1 } },
    tasks: { poll_interval_ms: 40, callback_backoff_ms: callbackBackoffMs },
    fetch: { allow_private: ["127.0.0.1/32"] },
  };
}

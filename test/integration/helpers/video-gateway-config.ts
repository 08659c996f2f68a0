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

import type { FakeUpstream } from "../mocks/upstreams/shared/fake-upstream.js";

/** The fake upstreams of the task point, one per video protocol. */
export interface TaskDrainFakes {
  openai: FakeUpstream;
  native: FakeUpstream;
  dashscope: FakeUpstream;
  ark: FakeUpstream;
}

/** One video protocol of the task point: its fake, how a poll looks there, and what is submitted for it. */
export interface ProtocolPlan {
  protocol: string;
  upstream: FakeUpstream;
  /** The fake's status route: a GET matching it is one poll. */
  pollPath: RegExp;
  /** Submission bodies, one per model of the protocol. */
  bodies: Array<(index: number) => object>;
  models: string[];
}

/** The four protocols and their models (vid-a on openai, vid-b on native, vid-c on dashscope, vid-d/e on ark). */
export function createTaskDrainPlans(fakes: TaskDrainFakes): ProtocolPlan[] {
  const { openai, native, dashscope, ark } = fakes;
  // The fakes keep every request for tests; polls are counted from that list, bodies are not needed.
  return [
    {
      protocol: "OpenAI videos",
      upstream: openai,
      pollPath: /^\/v1\/videos\/[^/]+$/,
      models: ["vid-a-2"],
      bodies: [(index) => ({ model: "vid-a-2", prompt: `bench ${index}` })],
    },
    {
      protocol: "native (long-running operations)",
      upstream: native,
      pollPath: /^\/v1beta\/models\/[^/]+\/operations\/[^/]+$/,
      models: ["vid-b-3.0-fast-generate-001"],
      bodies: [(index) => ({ model: "vid-b-3.0-fast-generate-001", prompt: `bench ${index}` })],
    },
    {
      protocol: "DashScope video synthesis",
      upstream: dashscope,
      pollPath: /^\/api\/v1\/tasks\/[^/]+$/,
      models: ["vid-c2.5-t2v-preview"],
      bodies: [(index) => ({ model: "vid-c2.5-t2v-preview", prompt: `bench ${index}`, duration: 5 })],
    },
    {
      protocol: "ARK content generation",
      upstream: ark,
      pollPath: /^\/api\/v3\/contents\/generations\/tasks\/[^/]+$/,
      models: ["vid-e-1-5-pro-251215", "vid-d-2-0"],
      bodies: [
        (index) => ({
          model: "vid-e-1-5-pro-251215",
          metadata: { content: [{ type: "text", text: `bench ${index} --dur 4` }] },
        }),
        (index) => ({ model: "vid-d-2-0", prompt: `bench ${index}` }),
      ],
    },
  ];
}

/** The gateway configuration of the task point: one channel per fake, the models priced, the poller's settings. */
export function taskDrainGatewayConfig(fakes: TaskDrainFakes, pollIntervalMs: number, maxConcurrentPolls: number) {
  const { openai, native, dashscope, ark } = fakes;
  return {
    channels: [
      { name: "openai-video", type: "openai", base_url: openai.url, key: "openai-secret", models: ["vid-a-2"] },
      {
        name: "native-video",
        type: "native",
        base_url: native.url,
        key: "native-secret",
        models: ["vid-b-3.0-fast-generate-001"],
        model_mapping: { "vid-b-3.0-fast-generate-001": "veo-3.0-fast-generate-001" },
      },
      {
        name: "dashscope-video",
        type: "dashscope",
        base_url: dashscope.url,
        key: "dashscope-secret",
        models: ["vid-c2.5-t2v-preview"],
        model_mapping: { "vid-c2.5-t2v-preview": "wan2.5-t2v-preview" },
      },
      {
        name: "ark-video",
        type: "ark",
        base_url: ark.url,
        key: "ark-secret",
        models: ["vid-e-1-5-pro-251215", "vid-d-2-0"],
        model_mapping: {
          "vid-e-1-5-pro-251215": "doubao-seedance-1-5-pro-251215",
          "vid-d-2-0": "dreamina-seedance-2-0-260128",
        },
      },
    ],
    pricing: {
      "vid-a-2": { per_second: 0.1 },
      "vid-b-3.0-fast-generate-001": { per_second: 0.1 },
      "vid-c2.5-t2v-preview": { per_second: 0.1 },
      "vid-e-1-5-pro-251215": { per_second: 0.1 },
      "vid-d-2-0": { output: 2 },
    },
    tasks: { poll_interval_ms: pollIntervalMs, max_concurrent_polls: maxConcurrentPolls },
  };
}

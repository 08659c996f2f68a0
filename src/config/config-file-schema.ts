import { channelTypeValues } from "../../generated/types/management.js";
import { longestTimerMs } from "./gateway-config.js";
// JSON Schema of the GATEWAY_CONFIG YAML file. Unknown keys are rejected so a typo is an error, not a silent default.

const timeoutSchema = { type: "integer", minimum: 1, maximum: longestTimerMs } as const;
const timeoutsSchema = {
  type: "object",
  additionalProperties: false,
  properties: { connect_ms: timeoutSchema, header_ms: timeoutSchema, idle_ms: timeoutSchema },
} as const;

const priceSchema = {
  type: "object",
  additionalProperties: false,
  description:
    "USD per 1M tokens (input, output, cached_input (cache reads), cache_write_input (cache writes; default 1.25 × input)), or per unit (per_image, per_second, per_call).",
  properties: {
    input: { type: "number", minimum: 0 },
    output: { type: "number", minimum: 0 },
    cached_input: { type: "number", minimum: 0 },
    cache_write_input: { type: "number", minimum: 0 },
    audio_input: { type: "number", minimum: 0 },
    audio_output: { type: "number", minimum: 0 },
    image_output: { type: "number", minimum: 0 },
    per_image: { type: "number", minimum: 0 },
    per_second: { type: "number", minimum: 0 },
    per_call: { type: "number", minimum: 0 },
    max_output_tokens: { type: "integer", minimum: 1 },
  },
} as const;

export const configFileSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    channels: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "type", "base_url", "models"],
        properties: {
          name: { type: "string", minLength: 1 },
          type: { type: "string", enum: [...channelTypeValues] },
          base_url: { type: "string", pattern: "^https?://" },
          key: { type: "string" },
          keys: { type: "array", items: { type: "string" }, minItems: 1 },
          models: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
          model_mapping: { type: "object", additionalProperties: { type: "string" } },
          groups: { type: "array", items: { type: "string" }, minItems: 1 },
          // The same ranges as the channel operations of the management spec.
          priority: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
          weight: { type: "integer", minimum: 0, maximum: 2147483647 },
          enabled: { type: "boolean" },
          timeouts: timeoutsSchema,
          // Its keys depend on the type: each adapter declares and checks them (findChannelSettingsProblem).
          settings: { type: "object" },
        },
      },
    },
    groups: {
      type: "object",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        properties: {
          ratio: { type: "number", minimum: 0 },
          description: { type: "string" },
          selectable: { type: "boolean" },
        },
      },
    },
    users: {
      type: "object",
      additionalProperties: false,
      properties: { initial_quota: { type: "integer", minimum: 0 } },
    },
    auto_groups: { type: "array", items: { type: "string" } },
    pricing: {
      type: "object",
      description:
        "Prices by model name. A served model without one is refused (403) unless allow_unpriced is true; an empty entry prices a model at zero on purpose.",
      properties: { allow_unpriced: { type: "boolean" } },
      additionalProperties: priceSchema,
    },
    default_max_output_tokens: { type: "integer", minimum: 1 },
    timeouts: timeoutsSchema,
    relay: {
      type: "object",
      additionalProperties: false,
      properties: {
        max_attempts: { type: "integer", minimum: 1, maximum: 10 },
        cooldown_after_failures: { type: "integer", minimum: 1 },
        cooldown_seconds: { type: "number", minimum: 0 },
      },
    },
    channel_health: {
      type: "object",
      additionalProperties: false,
      properties: {
        // As openapi's ChannelHealthRules: the stored columns are 32-bit integers, and the interval a timer.
        disable_after_failures: { type: "integer", minimum: 0, maximum: 2_147_483_647 },
        failure_window_seconds: { type: "integer", minimum: 1, maximum: 2_147_483_647 },
        probe_interval_seconds: { type: "integer", minimum: 1, maximum: Math.floor(longestTimerMs / 1000) },
        test_concurrency: { type: "integer", minimum: 1, maximum: 64 },
        webhook_url: { type: "string", pattern: "^https?://" },
        webhook_secret: { type: "string", minLength: 16 },
      },
    },
    routing: {
      type: "object",
      additionalProperties: false,
      properties: {
        affinity_ttl_seconds: { type: "integer", minimum: 0, maximum: 86_400 },
      },
    },
    tasks: {
      type: "object",
      additionalProperties: false,
      properties: {
        poll_interval_ms: { type: "integer", minimum: 1 },
        timeout_minutes: { type: "number", exclusiveMinimum: 0 },
        max_concurrent_polls: { type: "integer", minimum: 1 },
        callback_backoff_ms: { type: "integer", minimum: 1 },
        callback_tries: { type: "integer", minimum: 5, maximum: 20 },
      },
    },
    responses: {
      type: "object",
      additionalProperties: false,
      properties: {
        route_retention_days: { type: "number", exclusiveMinimum: 0 },
      },
    },
    logs: {
      type: "object",
      additionalProperties: false,
      properties: {
        retention_days: { type: "number", minimum: 0 },
        rollup_retention_days: { type: "number", minimum: 0 },
        retention_batch_size: { type: "integer", minimum: 1, maximum: 10000 },
        retention_pause_ms: { type: "integer", minimum: 0 },
      },
    },
    native: {
      type: "object",
      additionalProperties: false,
      properties: {
        safety_settings: {
          type: "array",
          items: {
            type: "object",
            required: ["category", "threshold"],
            properties: { category: { type: "string" }, threshold: { type: "string" } },
          },
        },
      },
    },
    fetch: {
      type: "object",
      additionalProperties: false,
      properties: {
        allow_private: { type: "array", items: { type: "string", minLength: 1 } },
      },
    },
    key_reveal_rate_limit: {
      type: "object",
      additionalProperties: false,
      properties: {
        points: { type: "integer", minimum: 1 },
        duration_seconds: { type: "integer", minimum: 1 },
      },
    },
    token_limit_per_user: { type: "integer", minimum: 1 },
    sign_in_limits: {
      type: "object",
      additionalProperties: false,
      properties: {
        failures_per_username: { type: "integer", minimum: 1 },
        failures_per_address: { type: "integer", minimum: 1 },
        window_seconds: { type: "integer", minimum: 1 },
      },
    },
  },
} as const;

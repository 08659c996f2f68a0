import type {
  components as NativeComponents,
  operations as NativeOperations,
} from "../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../generated/types/openai.js";
import type { Channel } from "./channel.js";
import type { ChannelAttempt } from "./channel-attempt.js";
import type { QueryParameters } from "../../http/operation-types.js";
import type { ClientGoneSignal } from "../../http/client-gone-signal.js";
import type { RelayAttemptInput } from "./relay-attempt-input.js";
import type { ChannelSettingsShape } from "./channel-settings-shape.js";
import type { ImageCall } from "./image-call.js";
import type { MessagesCall, MessageTokenCountCall } from "./messages-call.js";
import type { NativeEmbedCall } from "./native-embed-call.js";
import type { NativeGenerateCall } from "./native-generate-call.js";
import type { TranscriptionCall } from "./transcription-call.js";
import type { ProviderServices } from "./provider-services.js";
import type { VideoSubmissionCall } from "./video-submission-call.js";
import type { VideoTaskCapability } from "./video-task-capability.js";

/**
 * The typed call each billed capability takes, by capability name. A capability is one client operation family;
 * its call is the client's request as the handler read it, before any provider translation. Adding a capability:
 * one line here, the adapters that serve it implement the method, and its handler calls runRelay with the name.
 */
export interface RelayCapabilityCalls {
  chat: OpenaiComponents["schemas"]["CreateChatCompletionRequest"];
  responses: OpenaiComponents["schemas"]["CreateResponseRequest"];
  embeddings: OpenaiComponents["schemas"]["CreateEmbeddingRequest"];
  images: ImageCall;
  speech: OpenaiComponents["schemas"]["CreateSpeechRequest"];
  transcription: TranscriptionCall;
  nativeGeneration: NativeGenerateCall;
  nativeEmbedding: NativeEmbedCall;
  /** A video task submission (or remix); adapters with `videoTasks` serve it with relayVideoSubmission. */
  videoSubmission: VideoSubmissionCall;
  /** Anthropic's Messages API (/v1/messages): passed through to Claude's protocol, translated to the others. */
  messages: MessagesCall;
}

export type RelayCapability = keyof RelayCapabilityCalls;

/**
 * One attempt of a capability against one channel of this adapter's type. It writes the client's answer through
 * `input` (deliver, deliverBytes, or a stream on input.response), fills `input.observed.usage`, and throws
 * UpstreamFailure for a failure before anything reached the client (the relay then may try the next channel).
 */
export type RelayCapabilityMethod<Call> = (
  call: Call,
  input: RelayAttemptInput,
  services: ProviderServices,
) => Promise<void>;

/** An attempt of an unbilled read (no reservation, no usage log): the channel and the client-gone signal. */
export interface UnbilledAttemptInput {
  attempt: ChannelAttempt;
  signal: ClientGoneSignal;
  /** As RelayAttemptInput.upstreamHeaders. */
  upstreamHeaders: RelayAttemptInput["upstreamHeaders"];
}

/** The smallest real request that proves a channel's key and base URL; credentials come from `credentialHeaders`. */
export type ChannelTestRequest = { method: "GET"; path: string } | { method: "POST"; path: string; body: unknown };

/**
 * One upstream protocol: how credentials go upstream, how a channel is tested, and which capabilities it serves
 * (an absent method is a capability the protocol lacks: the relay never plans its channels for that operation).
 */
export type ProviderAdapter = {
  /** The channel `type` this adapter serves (the registry's key; the spec's channel type enum). */
  readonly type: string;
  /**
   * The `settings` a channel of this type takes (checked at start and by the admin API); absent: none.
   */
  readonly settingsShape?: ChannelSettingsShape;
  /** The headers that carry one channel key upstream (e.g. `Authorization: Bearer`, `x-goog-api-key`). */
  credentialHeaders(key: string): Record<string, string>;
  /**
   * The channel test's headers when a key is not sent as it is (an OAuth token exchanged for it, a request
   * signature over the test request); absent: credentialHeaders. Attempts of such adapters authorise themselves.
   */
  channelCredentialHeaders?(
    channel: Channel,
    key: string,
    request: { path: string; body?: unknown },
  ): Promise<Record<string, string>>;
  /**
   * The channel test (POST /api/channel/{id}/test) for one upstream model name on the channel (its settings may
   * decide the path); nothing is billed.
   */
  channelTestRequest(upstreamModel: string, channel: Channel): ChannelTestRequest;
  /**
   * POST /v1/messages/count_tokens on one channel, never billed: the upstream's own count. Channels without it are
   * answered with the gateway's estimate.
   */
  messageTokenCount?(call: MessageTokenCountCall, input: UnbilledAttemptInput): Promise<{ input_tokens: number }>;
  /** GET /v1beta/voices on one channel: a read routed like a generation, never billed. */
  nativeVoices?(
    query: QueryParameters<NativeOperations["listVoices"]>,
    input: UnbilledAttemptInput,
  ): Promise<NativeComponents["schemas"]["ListVoicesResponse"]>;
  /** POST /v1beta/models/{model}:countTokens on one channel: the upstream's exact count, never billed. */
  nativeCountTokens?(
    request: NativeComponents["schemas"]["CountTokensRequest"],
    input: UnbilledAttemptInput,
  ): Promise<NativeComponents["schemas"]["CountTokensResponse"]>;
  /**
   * Asynchronous video tasks (submit / poll / fetch content / remix) in this protocol. The submission is planned by
   * runRelay as the `videoSubmission` capability (an adapter with `videoTasks` sets
   * `videoSubmission: (call, input) => relayVideoSubmission(itsVideoTasks, call, input)`); polls and content go to the channel
   * that accepted the task (src/tasks/).
   */
  videoTasks?: VideoTaskCapability;
  /**
   * The output cap an attempt of this protocol asks the upstream for, by capability, where the translation asks for
   * more than the client's own cap (Claude counts thinking inside `max_tokens`, so a thinking budget raises it): the
   * reservation's worst case holds this cap, else the upstream could bill more than was held. Absent, or undefined
   * for a call: the client's cap.
   */
  readonly outputTokenCap?: {
    readonly [Capability in RelayCapability]?: (
      call: RelayCapabilityCalls[Capability],
      upstreamModel: string,
    ) => number | undefined;
  };
} & { readonly [Capability in RelayCapability]?: RelayCapabilityMethod<RelayCapabilityCalls[Capability]> };

import { relayVideoSubmission } from "../../upstream/relay-video-submission.js";
import { dashscopeVideoTasks } from "./dashscope-video-tasks.js";
import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { relayDashscopeImage } from "./relay-dashscope-image.js";

/**
 * DashScope (`{base_url}/api/v1/...`, `Authorization: Bearer`): the img-d- image family through synchronous
 * multimodal generation (POST /api/v1/services/aigc/multimodal-generation/generation), with the family's rules and
 * the image error table, and the vid-c- video family as asynchronous video-synthesis tasks (`videoTasks`). Fake
 * upstream: mocks/upstreams/dashscope/.
 */
export const dashscopeAdapter = {
  type: "dashscope",
  videoTasks: dashscopeVideoTasks,
  videoSubmission: (call, input) => relayVideoSubmission(dashscopeVideoTasks, call, input),
  credentialHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  // Asking for a task that does not exist answers 200 (task_status UNKNOWN) for a valid key and 401 InvalidApiKey
  // otherwise: it proves the key and the base URL without generating (and paying for) anything.
  channelTestRequest: () => ({ method: "GET", path: "/api/v1/tasks/gateway-channel-test" }),
  images: (call, input, services) => relayDashscopeImage(call, input, services),
} as const satisfies ProviderAdapter;

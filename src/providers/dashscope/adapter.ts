import { relayVideoSubmission } from "../../tasks/relay-video-submission.js";
import { dashscopeVideoTasks } from "./dashscope-video-tasks.js";
import type { ProviderAdapter } from "../provider-adapter.js";

/**
 * DashScope (`{base_url}/api/v1/...`, `Authorization: Bearer`): the img-d- image family through synchronous
 * multimodal generation and the vid-c- video family as asynchronous video-synthesis tasks (`videoTasks`). The
 * `images` capability (POST /api/v1/services/aigc/multimodal-generation/generation, with the family's rules and
 * error table) is added by the image work of issue 13, which also adds the image half of the fake upstream in
 * mocks/upstreams/dashscope/.
 */
export const dashscopeAdapter = {
  type: "dashscope",
  videoTasks: dashscopeVideoTasks,
  videoSubmission: (call, input) => relayVideoSubmission(dashscopeVideoTasks, call, input),
  credentialHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  // Asking for a task that does not exist answers 200 (task_status UNKNOWN) for a valid key and 401 InvalidApiKey
  // otherwise: it proves the key and the base URL without generating (and paying for) anything.
  channelTestRequest: () => ({ method: "GET", path: "/api/v1/tasks/gateway-channel-test" }),
} as const satisfies ProviderAdapter;

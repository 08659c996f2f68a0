import { relayVideoSubmission } from "../../tasks/relay-video-submission.js";
import { arkVideoTasks } from "./ark-video-tasks.js";
import type { ProviderAdapter } from "../provider-adapter.js";

/**
 * The ARK API (`{base_url}/api/v3/...`, `Authorization: Bearer`): the img-b- image family (Seedream) and the
 * vid-d- / vid-e- video families as content-generation tasks (`videoTasks`). The `images` capability (POST
 * /api/v3/images/generations, with the family's rules and error table) is added by the image work of issue 13,
 * which also adds the image half of the fake upstream in mocks/upstreams/ark/.
 */
export const arkAdapter = {
  type: "ark",
  videoTasks: arkVideoTasks,
  videoSubmission: (call, input) => relayVideoSubmission(arkVideoTasks, call, input),
  credentialHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  // Listing one generation task proves the key and the base URL without generating (and paying for) anything.
  channelTestRequest: () => ({ method: "GET", path: "/api/v3/contents/generations/tasks?page_num=1&page_size=1" }),
} as const satisfies ProviderAdapter;

import { relayVideoSubmission } from "../../upstream/relay-video-submission.js";
import { arkVideoTasks } from "./ark-video-tasks.js";
import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { relayArkImage } from "./relay-ark-image.js";

/**
 * The ARK API (`{base_url}/api/v3/...`, `Authorization: Bearer`): the img-b- image family (Seedream, including
 * img-b-5-0-pro-260628) through POST /api/v3/images/generations, with the family's rules and the image error
 * table, and the vid-d- / vid-e- video families as content-generation tasks (`videoTasks`). Fake upstream:
 * mocks/upstreams/ark/.
 */
export const arkAdapter = {
  type: "ark",
  videoTasks: arkVideoTasks,
  videoSubmission: (call, input) => relayVideoSubmission(arkVideoTasks, call, input),
  credentialHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  // Listing one generation task proves the key and the base URL without generating (and paying for) anything.
  channelTestRequest: () => ({ method: "GET", path: "/api/v3/contents/generations/tasks?page_num=1&page_size=1" }),
  images: (call, input, services) => relayArkImage(call, input, services),
} as const satisfies ProviderAdapter;

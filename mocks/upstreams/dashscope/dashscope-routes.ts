import type { FakeRoute } from "../shared/fake-route.js";
import { handleResultFile } from "../shared/handle-result-file.js";
import type { FakeDashscopeState } from "./fake-dashscope-state.js";
import { handleDashscopeImageGeneration } from "./handle-dashscope-image-generation.js";
import { handleGetUnknownTask } from "./handle-get-unknown-task.js";

/** The fake DashScope's routes; a new capability (video synthesis tasks) adds its files and entries here. */
export const dashscopeRoutes: Array<FakeRoute<FakeDashscopeState>> = [
  {
    method: "POST",
    path: /^\/api\/v1\/services\/aigc\/multimodal-generation\/generation$/,
    handle: (exchange, state) => handleDashscopeImageGeneration(exchange, state),
  },
  {
    method: "GET",
    path: /^\/api\/v1\/tasks\/([\w-]+)$/,
    handle: (exchange, _state, match) => handleGetUnknownTask(exchange, match[1]!),
  },
  {
    method: "GET",
    path: /^\/results\/([\w.-]+)$/,
    handle: (exchange, state, match) => handleResultFile(exchange, state.files, match[1]!),
  },
];

import type { FakeRoute } from "../shared/fake-route.js";
import { handleResultFile } from "../shared/handle-result-file.js";
import type { FakeArkState } from "./fake-ark-state.js";
import { handleArkImageGenerations } from "./handle-ark-image-generations.js";
import { handleListContentTasks } from "./handle-list-content-tasks.js";

/** The fake ARK's routes; a new capability (video tasks) adds its files and entries here. */
export const arkRoutes: Array<FakeRoute<FakeArkState>> = [
  {
    method: "POST",
    path: /^\/api\/v3\/images\/generations$/,
    handle: (exchange, state) => handleArkImageGenerations(exchange, state),
  },
  {
    method: "GET",
    path: /^\/api\/v3\/contents\/generations\/tasks$/,
    handle: (exchange) => handleListContentTasks(exchange),
  },
  {
    method: "GET",
    path: /^\/results\/([\w.-]+)$/,
    handle: (exchange, state, match) => handleResultFile(exchange, state.files, match[1]!),
  },
];

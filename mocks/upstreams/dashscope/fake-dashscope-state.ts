import type { FakeResultFiles } from "../shared/fake-result-files.js";

/** What the fake DashScope keeps between requests: the result files it hosts. */
export interface FakeDashscopeState {
  files: FakeResultFiles;
  now(): number;
}

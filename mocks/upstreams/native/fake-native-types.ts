import type { FakeUpstream } from "../shared/fake-upstream.js";
import type { RecordedRequest } from "../shared/recorded-request.js";

/** The shared record plus the decoded query (repeated names become arrays), which native calls rely on (`alt`, `key`). */
export interface NativeRecordedRequest extends RecordedRequest {
  query: Record<string, string | string[]>;
}

export interface FakeNativeUpstream extends FakeUpstream {
  requests: NativeRecordedRequest[];
}

export interface FakeNativeServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** When set, every request needs `x-goog-api-key: <apiKey>` or `?key=<apiKey>`. */
  apiKey?: string;
}

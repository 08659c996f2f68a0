import type { TextSignatureCheck } from "./check-text-thought-signatures.js";
import type { FakeTaskBook } from "../shared/create-fake-task-book.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import type { RecordedRequest } from "../shared/recorded-request.js";

/** The shared record plus the decoded query (repeated names become arrays), which native calls rely on (`alt`, `key`). */
export interface NativeRecordedRequest extends RecordedRequest {
  query: Record<string, string | string[]>;
  /** generateContent of a generation-3 model: whether each model turn's text came back with its signature. */
  textSignatures?: TextSignatureCheck[];
}

export interface FakeNativeUpstream extends FakeUpstream {
  requests: NativeRecordedRequest[];
  /** The long-running video operations: their timeline (`setTimeline`), `vanish`, and every poll's time. */
  videos: FakeTaskBook<{
    model: string;
    prompt: string;
    sampleCount: number;
    durationSeconds: number;
    fileIds: string[];
  }>;
  /** The storage host file downloads redirect to (another port on 127.0.0.1), and the requests it got. */
  storage: { url: string; requests: RecordedRequest[] };
}

export interface FakeNativeServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** When set, every request needs `x-goog-api-key: <apiKey>` or `?key=<apiKey>`. */
  apiKey?: string;
  /** Epoch milliseconds for createTime and the request record; injectable so fixtures are byte-stable. */
  now?: () => number;
  /** responseId generator; random 22-character ids by default, like the real API's. */
  createResponseId?: () => string;
}

/** What answers need from the server beyond the request itself. */
export interface NativeAnswerContext {
  now: () => number;
  createResponseId: () => string;
}

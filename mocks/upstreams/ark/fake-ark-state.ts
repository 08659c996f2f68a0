import type { IdSequence } from "../shared/create-id-sequence.js";
import type { FakeResultFiles } from "../shared/fake-result-files.js";

/** What the fake ARK keeps between requests: ids and the result files it hosts. */
export interface FakeArkState {
  ids: IdSequence;
  files: FakeResultFiles;
  now(): number;
}

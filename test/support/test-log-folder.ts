import os from "node:os";
import path from "node:path";

/** Every gateway a test starts logs here; the global teardown scans it for leaked keys. */
export const testLogFolder = process.env.GATEWAY_TEST_LOG_FOLDER ?? path.join(os.tmpdir(), "gateway-test-logs");

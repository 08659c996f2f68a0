import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { responseLeakFilePrefix, scanLogsForKeys } from "../support/scan-logs-for-keys.js";

// The suite's last check (global-setup.ts) scans every log line and every recorded response finding; this makes
// sure the scanner itself sees both key forms and channel keys, and leaves ordinary lines alone.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "secrets-scan-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe("scanLogsForKeys", () => {
  it("finds sk- keys, bare 48-character keys, channel keys and recorded response leaks", () => {
    const bare = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl";
    fs.writeFileSync(
      path.join(folder, "config-1.yaml"),
      YAML.stringify({ channels: [{ name: "c", key: "channel-secret-value" }] }),
    );
    fs.writeFileSync(
      path.join(folder, "gateway-1.log"),
      [
        '{"msg":"ordinary line","requestId":"req_0123456789abcdef"}',
        `{"msg":"leak sk-${bare}"}`,
        `{"msg":"bare ${bare}"}`,
        '{"msg":"upstream said channel-secret-value"}',
        '{"msg":"masked sk-AbCd**********ijkl"}',
      ].join("\n"),
    );
    fs.writeFileSync(path.join(folder, `${responseLeakFilePrefix}1.txt`), "GET /v1/models 200\n");
    expect(scanLogsForKeys(folder).sort()).toEqual([
      "gateway-1.log:2",
      "gateway-1.log:3",
      "gateway-1.log:4",
      `${responseLeakFilePrefix}1.txt: GET /v1/models 200`,
    ]);
  });
});

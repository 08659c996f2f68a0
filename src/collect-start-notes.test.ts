import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { collectStartNotes, readmeExampleAdminToken } from "./collect-start-notes.js";

const built = fs.mkdtempSync(path.join(os.tmpdir(), "start-notes-"));
fs.writeFileSync(path.join(built, "index.html"), "<!doctype html>");
afterAll(() => fs.rmSync(built, { recursive: true, force: true }));

const config = { host: "0.0.0.0", port: 3000, adminToken: "a-real-secret", consoleFolder: built };

describe("collectStartNotes", () => {
  it("says where the console is, and nothing else when the gateway is ready to use", () => {
    expect(collectStartNotes({ config, channelCount: 1 })).toEqual([
      {
        level: "info",
        message: "web console at http://localhost:3000/ (APIs under http://localhost:3000/v1, /v1beta and /api)",
      },
    ]);
    expect(collectStartNotes({ config: { ...config, host: "::1" }, channelCount: 1 })[0]?.message).toContain(
      "http://[::1]:3000/",
    );
  });

  it("warns about an unbuilt console, no channel and the README's admin token, never printing the token", () => {
    const notes = collectStartNotes({
      config: { ...config, adminToken: readmeExampleAdminToken, consoleFolder: path.join(built, "missing") },
      channelCount: 0,
    });
    expect(notes.map((note) => note.level)).toEqual(["warn", "warn", "warn"]);
    expect(notes[0]?.message).toContain("web console not built");
    expect(notes[1]?.message).toContain("no channel is configured: every model call answers 503");
    expect(notes[2]?.message).toContain("GATEWAY_ADMIN_TOKEN is the README's example value");
    expect(JSON.stringify(notes)).not.toContain(readmeExampleAdminToken);
  });
});

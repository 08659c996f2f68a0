import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import { startGatewayProcess } from "../support/start-gateway-process.js";

// Issue 17, defect 8: SIGTERM with streams open. Streams that end within SHUTDOWN_GRACE_MS finish normally; the
// ones still open at the grace end with one error event in their generation's shape before the socket closes, are
// billed for the usage observed so far, and the process exits 0 with no hold left.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-shutdown-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Reads a streamed answer to its end (or until the socket closes) and returns its text. */
async function readAll(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    text += `\n[socket error: ${(error as Error).message}]`;
  }
  return text;
}

describe("SIGTERM with streams open", () => {
  it("finishes short streams, ends long ones with an error event in their shape, bills both, exits 0", async () => {
    const quick = await startFakeOpenaiServer({ apiKey: "quick-secret" });
    quick.setFaults({ chunkDelayMs: 50 });
    const stalling = await startFakeOpenaiServer({ apiKey: "stall-secret" });
    stalling.setFaults({ stallAfterChunks: 5 });
    const native = await startFakeNativeServer({ apiKey: "native-secret" });
    native.setFaults({ stallAfterChunks: 2 });
    const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
    const configFile = path.join(folder, "config.yaml");
    fs.writeFileSync(
      configFile,
      YAML.stringify({
        channels: [
          { name: "quick", type: "openai", base_url: quick.url, key: "quick-secret", models: ["short-model"] },
          { name: "stall", type: "openai", base_url: stalling.url, key: "stall-secret", models: ["long-model"] },
          { name: "native", type: "native", base_url: native.url, key: "native-secret", models: ["gmx-2.5-flash"] },
        ],
        pricing: {
          "short-model": { input: 2, output: 4 },
          "long-model": { input: 2, output: 4 },
          "gmx-2.5-flash": { input: 2, output: 4 },
        },
      }),
    );
    const databaseUrl = `sqlite:${path.join(folder, "shutdown.db")}`;
    const gateway = await startGatewayProcess({
      DATABASE_URL: databaseUrl,
      GATEWAY_CONFIG: configFile,
      GATEWAY_ADMIN_TOKEN: adminToken,
      SHUTDOWN_GRACE_MS: "1500",
    });
    try {
      const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
      await fetch(`${gateway.url}/api/token/`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "shutdown", remain_quota: 1_000_000 }),
      });
      const key = `sk-${((await (await fetch(`${gateway.url}/api/token/1/key`, { method: "POST", headers: admin })).json()) as { data: { key: string } }).data.key}`;
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const post = (pathname: string, body: unknown) =>
        fetch(`${gateway.url}${pathname}`, { method: "POST", headers, body: JSON.stringify(body) });
      const chat = (model: string) =>
        post("/v1/chat/completions", {
          model,
          stream: true,
          messages: [{ role: "user", content: "one two three four five six seven eight" }],
        });

      const longChat = await chat("long-model");
      const longResponses = await post("/v1/responses", { model: "long-model", stream: true, input: "tell me more" });
      const longNative = await post("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse", {
        contents: [{ role: "user", parts: [{ text: "a long story please" }] }],
      });
      for (const response of [longChat, longResponses, longNative]) expect(response.status).toBe(200);
      const short = await chat("short-model");
      expect(short.status).toBe(200);
      const texts = Promise.all([longChat, longResponses, longNative, short].map(readAll));

      gateway.child.kill("SIGTERM");
      const [longChatText, longResponsesText, longNativeText, shortText] = await texts;
      expect(await gateway.exited).toBe(0);

      // The short stream finished on its own, with its usage and [DONE], and no error.
      expect(shortText).toContain("data: [DONE]");
      expect(shortText).not.toContain('"error"');
      // Each long one ends with one error event in its generation's shape.
      const lastEvent = (text: string) =>
        text
          .trim()
          .split(/\r?\n\r?\n/)
          .filter(Boolean);
      const chatEvents = lastEvent(longChatText);
      expect(chatEvents.at(-1)).toBe("data: [DONE]");
      expect(JSON.parse(chatEvents.at(-2)!.slice("data: ".length))).toMatchObject({
        error: {
          message: expect.stringContaining("shutting down"),
          type: expect.any(String),
          code: expect.any(String),
        },
      });
      const responsesLast = lastEvent(longResponsesText).at(-1)!;
      expect(responsesLast.startsWith("event: error\n")).toBe(true);
      expect(JSON.parse(responsesLast.split("\ndata: ")[1]!)).toMatchObject({
        type: "error",
        message: expect.stringContaining("shutting down"),
      });
      const nativeLast = lastEvent(longNativeText).at(-1)!;
      expect(JSON.parse(nativeLast.slice("data: ".length))).toMatchObject({
        error: {
          code: expect.any(Number),
          message: expect.stringContaining("shutting down"),
          status: expect.any(String),
        },
      });

      // Billed: every reservation settled, the long streams for what they had streamed.
      const database = await openDatabase(databaseUrl);
      try {
        const rows = await database.db
          .selectFrom("quota_reservations")
          .select(["id", "settled", "actual", "reserved"])
          .execute();
        expect(rows).toHaveLength(4);
        for (const row of rows) {
          expect(Number(row.settled)).toBe(1);
          expect(Number(row.actual)).toBeGreaterThan(0);
        }
        const token = await database.db
          .selectFrom("tokens")
          .select(["remain_quota", "used_quota"])
          .where("name", "=", "shutdown")
          .executeTakeFirstOrThrow();
        const billed = rows.reduce((sum, row) => sum + Number(row.actual), 0);
        expect(token.used_quota).toBe(billed);
        expect(Number(token.remain_quota) + Number(token.used_quota)).toBe(1_000_000);
      } finally {
        await database.close();
      }
    } finally {
      gateway.child.kill("SIGKILL");
      await quick.close();
      await stalling.close();
      await native.close();
    }
  }, 60_000);
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeUpstream,
  startFakeAnthropicServer,
} from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

/**
 * Claude Code's native binary, from its per-platform package (the wrapper package's postinstall copies the same file
 * over its placeholder, and install scripts may be off).
 */
function findClaudeCodeBinary(): string {
  const require = createRequire(import.meta.url);
  const platformPackage = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  return path.join(path.dirname(require.resolve(`${platformPackage}/package.json`)), "claude");
}

interface ClaudeCodeResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result: string;
  num_turns: number;
}

describe.each(testDatabases)("Claude Code through the gateway on $name", ({ database }) => {
  let claude: FakeUpstream;
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  let gateway: TestGateway;
  let apiKey: string;
  let tokenId: number;
  let workFolder: string;

  beforeAll(async () => {
    [claude, openai, native] = await Promise.all([
      startFakeAnthropicServer({ apiKey: "sk-ant-upstream-secret" }),
      startFakeOpenaiServer({ apiKey: "openai-upstream-secret" }),
      startFakeNativeServer({ apiKey: "native-upstream-secret" }),
    ]);
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "claude",
            type: "anthropic",
            base_url: claude.url,
            key: "sk-ant-upstream-secret",
            models: ["claude-a"],
          },
          { name: "gpt", type: "openai", base_url: openai.url, key: "openai-upstream-secret", models: ["gpt-coder"] },
          // A generation-3 model: the fake refuses a function-call turn whose thought signature did not come back.
          {
            name: "gmx",
            type: "native",
            base_url: native.url,
            key: "native-upstream-secret",
            models: ["gmx-3-flash-preview"],
          },
        ],
        pricing: {
          "claude-a": { input: 2, output: 4, cached_input: 1 },
          "gpt-coder": { input: 2, output: 4 },
          "gmx-3-flash-preview": { input: 2, output: 4 },
        },
      },
    });
    const created = await createApiKey(gateway, { remainQuota: 5_000_000 });
    apiKey = created.key;
    tokenId = created.id;
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([claude.close(), openai.close(), native.close()]);
  });
  beforeEach(() => {
    claude.reset();
    openai.reset();
    native.reset();
    workFolder = fs.mkdtempSync(path.join(os.tmpdir(), "claude-code-"));
    fs.writeFileSync(path.join(workFolder, "notes.txt"), "The secret word is pineapple.\n");
  });

  async function runClaudeCode(prompt: string, model: string): Promise<ClaudeCodeResult> {
    const home = path.join(workFolder, "home");
    fs.mkdirSync(home);
    const child = spawn(
      findClaudeCodeBinary(),
      ["-p", prompt, "--model", model, "--output-format", "json", "--tools", "Read", "--allowedTools", "Read"],
      {
        cwd: workFolder,
        timeout: 120_000,
        // Headless: nothing on stdin (it would wait for piped input otherwise).
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          ANTHROPIC_BASE_URL: gateway.url,
          ANTHROPIC_API_KEY: apiKey,
          ANTHROPIC_SMALL_FAST_MODEL: model,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (!stdout.trim().startsWith("{"))
      throw new Error(`Claude Code exited with ${exitCode}: ${stdout.slice(0, 2000)} ${stderr.slice(0, 2000)}`);
    return JSON.parse(stdout) as ClaudeCodeResult;
  }

  it("reads a file with its Read tool against a Claude channel, and the conversation is billed", async () => {
    const notes = path.join(workFolder, "notes.txt");
    const before = await readToken(gateway, tokenId);
    const result = await runClaudeCode(`What does notes.txt say? [tool:Read {"file_path":"${notes}"}]`, "claude-a");
    expect(result).toMatchObject({ type: "result", is_error: false });
    expect(result.result).toContain("pineapple");
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBeGreaterThan(0);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
  });

  it("reads a file with its Read tool against an OpenAI channel, on Messages translated to chat completions", async () => {
    const notes = path.join(workFolder, "notes.txt");
    const before = await readToken(gateway, tokenId);
    const result = await runClaudeCode(`What does notes.txt say? [tool:Read {"file_path":"${notes}"}]`, "gpt-coder");
    expect(result).toMatchObject({ type: "result", is_error: false });
    expect(result.result).toContain("pineapple");
    expect(claude.requests).toHaveLength(0);
    const toolTurn = openai.requests
      .map((request) => (request.body as { messages: Array<{ role: string; content: unknown }> }).messages)
      .find((messages) => messages.some((message) => message.role === "tool"));
    expect(JSON.stringify(toolTurn)).toContain("pineapple");
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBeGreaterThan(0);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
  });

  it("reads a file with its Read tool against a native channel, its thought signature carried across the tool turn", async () => {
    const notes = path.join(workFolder, "notes.txt");
    const before = await readToken(gateway, tokenId);
    const result = await runClaudeCode(
      `What does notes.txt say? [tool:Read {"file_path":"${notes}"}]`,
      "gmx-3-flash-preview",
    );
    expect(result).toMatchObject({ type: "result", is_error: false });
    expect(result.result).toContain("pineapple");
    expect(claude.requests).toHaveLength(0);
    const toolTurn = native.requests
      .map((request) => (request.body as { contents?: Array<{ role?: string; parts: unknown[] }> }).contents ?? [])
      .find((contents) => JSON.stringify(contents).includes("functionResponse"));
    expect(JSON.stringify(toolTurn)).toContain("pineapple");
    expect(JSON.stringify(toolTurn)).toContain("thoughtSignature");
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBeGreaterThan(0);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
  });
});

import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { signAnswerText } from "../../mocks/upstreams/native/sign-answer-text.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createOpenaiSchemaValidator } from "../support/create-openai-schema-validator.js";

const testDatabases = await openTestDatabases();
const validate = createOpenaiSchemaValidator();

/** Both models cost $2 in and $4 out per 1M tokens: (input × 2 + output × 4) / 2 quota units. */
const priceOf = (input: number, output: number) => (input * 2 + output * 4) / 2;
const weatherParameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
type NativeBody = { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };

/**
 * The native family through the official SDK's two text APIs: Responses on native channels (JSON and stream),
 * thought signatures across tool round trips with a generation-3 model (the fake refuses a turn without them, as
 * the real upstream does) through chat and Responses, text signatures across plain turns (the fake records whether
 * they came back, as the real upstream does not refuse), several candidates and log probabilities. The fake counts one
 * token per word and 2 per content, so prices are exact.
 */
describe.each(testDatabases)(
  "Responses, thought signatures and candidates on native channels on $name",
  ({ database }) => {
    let main: FakeNativeUpstream;
    let backup: FakeNativeUpstream;
    let gateway: TestGateway;
    let client: OpenAI;
    let tokenId: number;
    let responseCounter = 0;

    const spent = async (action: () => Promise<unknown>) => {
      const before = await readToken(gateway, tokenId);
      await action();
      const after = await readToken(gateway, tokenId);
      expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
      return before.remain_quota - after.remain_quota;
    };

    beforeAll(async () => {
      main = await startFakeNativeServer({
        apiKey: "main-secret",
        createResponseId: () => `main-${++responseCounter}`,
      });
      backup = await startFakeNativeServer({
        apiKey: "backup-secret",
        createResponseId: () => `backup-${++responseCounter}`,
      });
      const models = ["gmx-2.5-flash", "gmx-3-flash-preview"];
      gateway = await startTestGateway({
        database,
        configFile: {
          channels: [
            { name: "native-main", type: "native", base_url: main.url, key: "main-secret", models, priority: 10 },
            { name: "native-backup", type: "native", base_url: backup.url, key: "backup-secret", models, priority: 5 },
          ],
          pricing: { "gmx-2.5-flash": { input: 2, output: 4 }, "gmx-3-flash-preview": { input: 2, output: 4 } },
        },
      });
      const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
      tokenId = apiKey.id;
      client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    });
    afterAll(async () => {
      await gateway.close();
      await main.close();
      await backup.close();
    });
    beforeEach(() => {
      main.reset();
      backup.reset();
    });

    it("answers responses.create from generateContent and bills the usageMetadata exactly", async () => {
      let response: OpenAI.Responses.Response | undefined;
      const cost = await spent(async () => {
        response = await client.responses.create({
          model: "gmx-2.5-flash",
          instructions: "Be brief",
          input: "hello world",
          max_output_tokens: 50,
        });
      });
      expect(response!.id).toBe(`resp_main-${responseCounter}`);
      expect(response!.object).toBe("response");
      expect(response!.status).toBe("completed");
      expect(response!.model).toBe("gmx-2.5-flash");
      expect(response!.output_text).toBe("Echo: hello world");
      expect(response!.output).toEqual([
        {
          id: `msg_main-${responseCounter}_0`,
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Echo: hello world", annotations: [], logprobs: [] }],
        },
      ]);
      // prompt: (2 + 2 system words) + (2 + 2 user words) = 8; answer: 3 words.
      expect(response!.usage).toEqual({
        input_tokens: 8,
        output_tokens: 3,
        total_tokens: 11,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      });
      expect(main.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
      // temperature 1 and top_p 0.98 are the seed's Responses defaults, filled in by the request validator.
      expect(main.requests[0]!.body).toEqual({
        contents: [{ role: "user", parts: [{ text: "hello world" }] }],
        systemInstruction: { parts: [{ text: "Be brief" }] },
        generationConfig: { temperature: 1, topP: 0.98, maxOutputTokens: 50 },
      });
      expect(cost).toBe(priceOf(8, 3));
    });

    it("streams the seed's event sequence with rising sequence numbers, thoughts as a reasoning item", async () => {
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      const cost = await spent(async () => {
        const stream = await client.responses.create({
          model: "gmx-2.5-flash",
          input: [{ role: "user", content: [{ type: "input_text", text: "hello world" }] }],
          reasoning: { effort: "low", summary: "auto" },
          stream: true,
        });
        for await (const event of stream) events.push(event);
      });
      const types = events.map((event) => event.type);
      expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
      expect(types.at(-1)).toBe("response.completed");
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      const firstDelta = types.indexOf("response.output_text.delta");
      expect(types.slice(firstDelta - 2, firstDelta)).toEqual([
        "response.output_item.added",
        "response.content_part.added",
      ]);
      expect(types.slice(types.lastIndexOf("response.output_text.delta") + 1)).toEqual([
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      const deltas = events.filter((event) => event.type === "response.output_text.delta");
      expect(deltas.map((event) => event.delta).join("")).toBe("Echo: hello world");
      const created = events[0] as OpenAI.Responses.ResponseCreatedEvent;
      expect(created.response.status).toBe("in_progress");
      const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      expect(completed.response.status).toBe("completed");
      expect(completed.response.id).toBe(created.response.id);
      expect(completed.response.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
      // prompt 4; output: "Thinking about hello world" (4 thought words) + 3 answer words = 7.
      expect(completed.response.usage).toMatchObject({
        input_tokens: 4,
        output_tokens: 7,
        total_tokens: 11,
        output_tokens_details: { reasoning_tokens: 4 },
      });
      expect(main.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse");
      expect((main.requests[0]!.body as { generationConfig: unknown }).generationConfig).toMatchObject({
        thinkingConfig: { includeThoughts: true },
      });
      expect(cost).toBe(priceOf(4, 7));
    });

    it("restates the request's settings in the JSON answer and in every streamed response object, as OpenAI's schema requires", async () => {
      const request = {
        model: "gmx-2.5-flash",
        instructions: "Be brief",
        input: "hello world",
        max_output_tokens: 60,
        temperature: 0.5,
        tools: [{ type: "function", name: "get_weather", parameters: weatherParameters }],
        tool_choice: "none",
        metadata: { ticket: "4711" },
        user: "user-7",
        reasoning: { effort: "low", summary: "auto" },
      };
      const settings = {
        error: null,
        instructions: "Be brief",
        max_output_tokens: 60,
        parallel_tool_calls: true,
        previous_response_id: null,
        reasoning: { effort: "low", summary: "auto" },
        store: false,
        temperature: 0.5,
        text: { format: { type: "text" } },
        tool_choice: "none",
        tools: request.tools,
        top_p: 0.98,
        truncation: "disabled",
        user: "user-7",
        metadata: { ticket: "4711" },
      };
      const post = (body: Record<string, unknown>) =>
        fetch(`${gateway.url}/v1/responses`, {
          method: "POST",
          headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      const answer = await post(request);
      expect(answer.status).toBe(200);
      const json = (await answer.json()) as Record<string, any>;
      expect(validate("ResponseObject", json)).toEqual([]);
      expect(json).toMatchObject({ ...settings, status: "completed", incomplete_details: null });
      const message = json.output.find((item: { type: string }) => item.type === "message");
      expect(message.content[0]).toMatchObject({ type: "output_text", annotations: [], logprobs: [] });

      const streamed = await post({ ...request, stream: true });
      const events = (await streamed.text())
        .split("\n\n")
        .filter((block) => block.startsWith("event: "))
        .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)) as Record<string, any>);
      for (const event of events) expect(validate("ResponseStreamEvent", event)).toEqual([]);
      const snapshots = events.filter((event) => event.response !== undefined).map((event) => event.response);
      expect(snapshots.map((snapshot) => snapshot.status)).toEqual(["in_progress", "in_progress", "completed"]);
      for (const snapshot of snapshots) expect(snapshot).toMatchObject({ ...settings, incomplete_details: null });
      expect(snapshots[0].usage).toBeNull();
      expect(snapshots[2].usage).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
      const parts = events.filter((event) => event.part?.type === "output_text").map((event) => event.part);
      expect(parts.length).toBeGreaterThan(0);
      for (const part of parts) expect(part.logprobs).toEqual([]);
    });

    it("carries a generation-3 thought signature through a two-turn Responses tool round trip (streamed second turn)", async () => {
      const tools: OpenAI.Responses.Tool[] = [
        { type: "function", name: "get_weather", parameters: weatherParameters, strict: false },
      ];
      const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Paris" }];
      const first = await client.responses.create({ model: "gmx-3-flash-preview", input, tools });
      const call = first.output.find((item) => item.type === "function_call")!;
      expect(call).toMatchObject({ type: "function_call", name: "get_weather", arguments: '{"city":"Paris"}' });
      expect(call.call_id).toContain("__thought__");

      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      const cost = await spent(async () => {
        const stream = await client.responses.create({
          model: "gmx-3-flash-preview",
          input: [
            ...input,
            // What SDK users do: the whole output goes back, as it came.
            ...(first.output as OpenAI.Responses.ResponseInputItem[]),
            { type: "function_call_output", call_id: call.call_id, output: '{"temp_c":18}' },
          ],
          tools,
          stream: true,
        });
        for await (const event of stream) events.push(event);
      });
      const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      const text = events
        .filter((event) => event.type === "response.output_text.delta")
        .map((event) => event.delta)
        .join("");
      expect(text).toBe('Function get_weather returned {"temp_c":18}');
      const second = main.requests[1]!.body as NativeBody;
      const signature = call.call_id.split("__thought__")[1];
      expect(second.contents[1]).toEqual({
        role: "model",
        parts: [
          {
            functionCall: { id: call.call_id.split("__thought__")[0], name: "get_weather", args: { city: "Paris" } },
            thoughtSignature: signature,
          },
        ],
      });
      const usage = completed.response.usage!;
      expect(cost).toBe(priceOf(usage.input_tokens, usage.output_tokens));

      // A client that loses the signature gets the upstream's refusal, and pays nothing.
      const unsignedId = call.call_id.split("__thought__")[0]!;
      const refusedCost = await spent(async () => {
        const error = await client.responses
          .create({
            model: "gmx-3-flash-preview",
            input: [
              ...input,
              { type: "function_call", call_id: unsignedId, name: "get_weather", arguments: '{"city":"Paris"}' },
              { type: "function_call_output", call_id: unsignedId, output: '{"temp_c":18}' },
            ],
            tools,
          })
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        expect(error).toBeInstanceOf(OpenAI.APIError);
        expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
        expect((error as Error).message).toContain("missing a thought_signature");
      });
      expect(refusedCost).toBe(0);
    });

    it("carries a generation-3 thought signature through a two-turn chat tool round trip (streamed first turn)", async () => {
      const tools: OpenAI.Chat.ChatCompletionTool[] = [
        { type: "function", function: { name: "get_weather", parameters: weatherParameters } },
      ];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "Paris" }];
      const stream = await client.chat.completions.create({
        model: "gmx-3-flash-preview",
        messages,
        tools,
        stream: true,
      });
      const calls: Array<{ id: string; name: string; arguments: string }> = [];
      let finishReason: string | null = null;
      for await (const chunk of stream) {
        for (const delta of chunk.choices[0]?.delta.tool_calls ?? [])
          calls[delta.index] = { id: delta.id!, name: delta.function!.name!, arguments: delta.function!.arguments! };
        finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      }
      expect(finishReason).toBe("tool_calls");
      expect(calls).toHaveLength(1);
      expect(calls[0]!.id).toContain("__thought__");

      let answer: OpenAI.Chat.ChatCompletion | undefined;
      const cost = await spent(async () => {
        answer = await client.chat.completions.create({
          model: "gmx-3-flash-preview",
          messages: [
            ...messages,
            {
              role: "assistant",
              content: null,
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: "function" as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            },
            { role: "tool", tool_call_id: calls[0]!.id, content: '{"temp_c":18}' },
          ],
          tools,
        });
      });
      expect(answer!.choices[0]!.message.content).toBe('Function get_weather returned {"temp_c":18}');
      const [baseId, signature] = calls[0]!.id.split("__thought__");
      expect((main.requests[1]!.body as NativeBody).contents[1]!.parts[0]).toEqual({
        functionCall: { id: baseId, name: "get_weather", args: { city: "Paris" } },
        thoughtSignature: signature,
      });
      expect(cost).toBe(priceOf(answer!.usage!.prompt_tokens, answer!.usage!.completion_tokens));
    });

    it("carries a generation-3 text signature through chat turns, JSON and streamed, back onto the text part", async () => {
      type SignedMessage = OpenAI.Chat.ChatCompletionMessage & { extra_content?: unknown };
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "hello there" }];
      const first = await client.chat.completions.create({ model: "gmx-3-flash-preview", messages });
      const firstMessage = first.choices[0]!.message as SignedMessage;
      expect(firstMessage.content).toBe("Echo: hello there");
      const firstSignature = signAnswerText("Echo: hello there");
      expect(firstMessage.extra_content).toEqual({ google: { thought_signature: firstSignature } });

      // Streamed: the fake sends the signature on an empty text part after the last word; the SDK's stream helper
      // keeps it on the message it accumulates.
      messages.push(firstMessage, { role: "user", content: "again" });
      let second: OpenAI.Chat.ChatCompletion | undefined;
      const cost = await spent(async () => {
        const stream = client.chat.completions.stream({
          model: "gmx-3-flash-preview",
          messages,
          stream_options: { include_usage: true },
        });
        second = await stream.finalChatCompletion();
      });
      const secondMessage = second!.choices[0]!.message as SignedMessage;
      expect(secondMessage.content).toBe("Echo: again");
      expect(secondMessage.extra_content).toEqual({ google: { thought_signature: signAnswerText("Echo: again") } });
      expect(cost).toBe(priceOf(second!.usage!.prompt_tokens, second!.usage!.completion_tokens));
      expect((main.requests[1]!.body as NativeBody).contents[1]).toEqual({
        role: "model",
        parts: [{ text: "Echo: hello there", thoughtSignature: firstSignature }],
      });
      expect(main.requests[1]!.textSignatures).toEqual([{ content: 1, part: 0, outcome: "valid" }]);

      messages.push(secondMessage, { role: "user", content: "thanks" });
      await client.chat.completions.create({ model: "gmx-3-flash-preview", messages });
      expect((main.requests[2]!.body as NativeBody).contents.filter((content) => content.role === "model")).toEqual([
        { role: "model", parts: [{ text: "Echo: hello there", thoughtSignature: firstSignature }] },
        { role: "model", parts: [{ text: "Echo: again", thoughtSignature: signAnswerText("Echo: again") }] },
      ]);
      expect(main.requests[2]!.textSignatures).toEqual([
        { content: 1, part: 0, outcome: "valid" },
        { content: 3, part: 0, outcome: "valid" },
      ]);
    });

    it("carries a generation-3 text signature through Responses turns as a reasoning item, and streams thought summaries", async () => {
      const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "hello there" }];
      const first = await client.responses.create({ model: "gmx-3-flash-preview", input });
      const firstSignature = signAnswerText("Echo: hello there");
      expect(first.output).toEqual([
        {
          id: `msg_main-${responseCounter}_0`,
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Echo: hello there", annotations: [], logprobs: [] }],
        },
        {
          id: `rs_main-${responseCounter}_1`,
          type: "reasoning",
          summary: [],
          encrypted_content: `native-thought-signature:${firstSignature}`,
          status: "completed",
        },
      ]);

      // What SDK users do: the whole output goes back as it came, then the next user message.
      input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: "user", content: "again" });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      let second: OpenAI.Responses.Response | undefined;
      const cost = await spent(async () => {
        const stream = client.responses.stream({
          model: "gmx-3-flash-preview",
          input,
          reasoning: { summary: "auto" },
        });
        for await (const event of stream) events.push(event);
        second = await stream.finalResponse();
      });
      expect(cost).toBe(priceOf(second!.usage!.input_tokens, second!.usage!.output_tokens));
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      const types = events.map((event) => event.type);
      const summaryDeltas = events.filter((event) => event.type === "response.reasoning_summary_text.delta");
      expect(summaryDeltas.map((event) => event.delta).join("")).toBe("Thinking about again");
      expect(types.slice(2, 2 + summaryDeltas.length + 7)).toEqual([
        "response.output_item.added",
        "response.reasoning_summary_part.added",
        ...summaryDeltas.map(() => "response.reasoning_summary_text.delta"),
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.content_part.added",
      ]);
      const secondSignature = signAnswerText("Echo: again");
      expect(second!.output.map((item) => item.type)).toEqual(["reasoning", "message", "reasoning"]);
      expect(second!.output[0]).toMatchObject({ summary: [{ type: "summary_text", text: "Thinking about again" }] });
      expect(second!.output[2]).toMatchObject({ encrypted_content: `native-thought-signature:${secondSignature}` });
      expect((main.requests[1]!.body as NativeBody).contents[1]).toEqual({
        role: "model",
        parts: [{ text: "Echo: hello there", thoughtSignature: firstSignature }],
      });
      expect(main.requests[1]!.textSignatures).toEqual([{ content: 1, part: 0, outcome: "valid" }]);

      input.push(...(second!.output as OpenAI.Responses.ResponseInputItem[]), { role: "user", content: "thanks" });
      await client.responses.create({ model: "gmx-3-flash-preview", input });
      expect((main.requests[2]!.body as NativeBody).contents).toEqual([
        { role: "user", parts: [{ text: "hello there" }] },
        { role: "model", parts: [{ text: "Echo: hello there", thoughtSignature: firstSignature }] },
        { role: "user", parts: [{ text: "again" }] },
        { role: "model", parts: [{ text: "Echo: again", thoughtSignature: secondSignature }] },
        { role: "user", parts: [{ text: "thanks" }] },
      ]);
      expect(main.requests[2]!.textSignatures).toEqual([
        { content: 1, part: 0, outcome: "valid" },
        { content: 3, part: 0, outcome: "valid" },
      ]);
    });

    it("answers n: 2 with one choice per candidate, JSON and streamed, and maps log probabilities", async () => {
      let completion: OpenAI.Chat.ChatCompletion | undefined;
      const cost = await spent(async () => {
        completion = await client.chat.completions.create({
          model: "gmx-2.5-flash",
          messages: [{ role: "user", content: "flip a coin" }],
          n: 2,
          logprobs: true,
          top_logprobs: 2,
        });
      });
      expect(completion!.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual(
        [
          [0, "Echo: flip a coin", "stop"],
          [1, "(2) Echo: flip a coin", "stop"],
        ],
      );
      const tokens = completion!.choices[0]!.logprobs!.content!;
      expect(tokens.map((token) => token.token).join("")).toBe("Echo: flip a coin");
      expect(tokens[0]!.top_logprobs).toHaveLength(2);
      expect(tokens[0]!.bytes).toEqual([...Buffer.from(tokens[0]!.token)]);
      expect((main.requests[0]!.body as { generationConfig: unknown }).generationConfig).toEqual({
        temperature: 0.7,
        candidateCount: 2,
        responseLogprobs: true,
        logprobs: 2,
      });
      // prompt 2 + 3 = 5; output: 4 + 5 words over both candidates.
      expect(completion!.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 9 });
      expect(cost).toBe(priceOf(5, 9));

      const stream = await client.chat.completions.create({
        model: "gmx-2.5-flash",
        messages: [{ role: "user", content: "flip a coin" }],
        n: 2,
        stream: true,
      });
      const texts = new Map<number, string>();
      const finished = new Map<number, string | null>();
      for await (const chunk of stream) {
        for (const choice of chunk.choices) {
          texts.set(choice.index, (texts.get(choice.index) ?? "") + (choice.delta.content ?? ""));
          if (choice.finish_reason) finished.set(choice.index, choice.finish_reason);
        }
      }
      expect(Object.fromEntries(texts)).toEqual({ 0: "Echo: flip a coin", 1: "(2) Echo: flip a coin" });
      expect(Object.fromEntries(finished)).toEqual({ 0: "stop", 1: "stop" });
    });

    it("refuses previous_response_id with a clear 400 and bills nothing", async () => {
      const cost = await spent(async () => {
        const error = await client.responses
          .create({ model: "gmx-2.5-flash", input: "hi", previous_response_id: "resp_earlier" })
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        const apiError = error as InstanceType<typeof OpenAI.BadRequestError>;
        expect(apiError.error).toMatchObject({ type: "invalid_request_error", param: "previous_response_id" });
        expect(apiError.message).toContain("keeps no conversation store");
      });
      expect(cost).toBe(0);
      expect(main.requests).toHaveLength(0);
    });

    it("fails over to the next native channel before the first event, and bills the stream once", async () => {
      main.setFaults({ status: 500, times: 1 });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      const cost = await spent(async () => {
        const stream = await client.responses.create({ model: "gmx-2.5-flash", input: "hello world", stream: true });
        for await (const event of stream) events.push(event);
      });
      expect(main.requests).toHaveLength(1);
      expect(backup.requests).toHaveLength(1);
      const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      expect(completed.response.id).toBe(`resp_backup-${responseCounter}`);
      expect(completed.response.usage).toMatchObject({ input_tokens: 4, output_tokens: 3 });
      expect(cost).toBe(priceOf(4, 3));
    });

    it("ends a stream the upstream breaks after the first event with an error event", async () => {
      main.setFaults({ resetMidStreamAfterChunks: 2, times: 1 });
      const response = await fetch(`${gateway.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gmx-2.5-flash", input: "one two three four five", stream: true }),
      });
      expect(response.status).toBe(200);
      const events = (await response.text())
        .split("\n\n")
        .filter((frame) => frame.startsWith("event: "))
        .map(
          (frame) =>
            JSON.parse(frame.slice(frame.indexOf("data: ") + "data: ".length)) as {
              type: string;
              sequence_number: number;
            },
        );
      expect(events[0]!.type).toBe("response.created");
      expect(events.at(-1)!.type).toBe("error");
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      expect(backup.requests).toHaveLength(0);
    });
  },
);

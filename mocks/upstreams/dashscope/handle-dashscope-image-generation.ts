import { createTinyPng } from "../native/create-tiny-png.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { originOf } from "../shared/origin-of.js";
import { sendJson } from "../shared/send-json.js";
import { DashscopeError } from "./dashscope-error.js";
import type { FakeDashscopeState } from "./fake-dashscope-state.js";

/** The PNG every result URL serves. */
export const FAKE_DASHSCOPE_PNG = createTinyPng(2, 1, [220, 40, 60]);

/**
 * POST /api/v1/services/aigc/multimodal-generation/generation, synchronous image generation: `input.messages`
 * with `{text}` and `{image}` parts, `parameters` (n: 1 to 6 for edit models, 1 otherwise; size `W*H`). Answers
 * `output.choices[].message.content[{image: url}]` with URLs on the fake's own origin and `usage.image_count`.
 * Prompt markers: `[sensitive]` → 400 DataInspectionFailed, `[empty]` → no choices.
 */
export async function handleDashscopeImageGeneration(exchange: FakeExchange, state: FakeDashscopeState): Promise<void> {
  const body = exchange.body.value as Record<string, unknown> | undefined;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new DashscopeError(400, "InvalidParameter", "Request body is not valid JSON.");
  if (typeof body.model !== "string" || body.model === "")
    throw new DashscopeError(400, "BadRequest.EmptyModel", 'Required parameter "model" missing from request.');
  const messages = (body.input as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new DashscopeError(400, "BadRequest.EmptyInput", 'Required parameter "input" missing from request.');
  const parts = messages.flatMap((message) => {
    const content = (message as { content?: unknown } | null)?.content;
    return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
  });
  const text = parts.flatMap((part) => (typeof part.text === "string" ? [part.text] : [])).join(" ");
  const images = parts.filter((part) => typeof part.image === "string").length;
  if (text.trim() === "")
    throw new DashscopeError(400, "InvalidParameter", "The text content of input.messages is empty.");
  const isEdit = body.model.includes("edit");
  if (isEdit && (images < 1 || images > 3))
    throw new DashscopeError(400, "InvalidParameter", "The number of input images must be between 1 and 3.");
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  const n = parameters.n ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > (isEdit ? 6 : 1))
    throw new DashscopeError(400, "InvalidParameter", `The parameter n must be between 1 and ${isEdit ? 6 : 1}.`);
  const size = parameters.size === undefined ? "1328*1328" : String(parameters.size);
  const sizeMatch = /^(\d+)\*(\d+)$/.exec(size);
  if (!sizeMatch) throw new DashscopeError(400, "InvalidParameter", `The size is not valid: ${size}.`);
  if (text.includes("[sensitive]"))
    throw new DashscopeError(400, "DataInspectionFailed", "Input data may contain inappropriate content.");

  const choices = text.includes("[empty]")
    ? []
    : Array.from({ length: n }, () => ({
        finish_reason: "stop",
        message: {
          role: "assistant",
          content: [
            {
              image: `${originOf(exchange)}${state.files.add("image/png", FAKE_DASHSCOPE_PNG, "png")}?Expires=1767312000&Signature=fake`,
            },
          ],
        },
      }));
  await sendJson(exchange, 200, {
    output: { choices, task_metric: { TOTAL: n, SUCCEEDED: choices.length, FAILED: n - choices.length } },
    usage: { width: Number(sizeMatch[1]), height: Number(sizeMatch[2]), image_count: choices.length },
    request_id: `fake-${Math.floor(state.now())}`,
  });
}

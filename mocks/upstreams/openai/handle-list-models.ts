import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { fakeOpenaiModelCreated, fakeOpenaiModels } from "./fake-openai-models.js";
import { OpenaiRequestError } from "./openai-request-error.js";

function toModelObject(model: (typeof fakeOpenaiModels)[number]) {
  return { id: model.id, object: "model", created: fakeOpenaiModelCreated, owned_by: model.owned_by };
}

/** GET /v1/models and GET /v1/models/{model}. */
export async function handleListModels(exchange: FakeExchange, modelId?: string): Promise<void> {
  if (modelId === undefined) {
    await sendJson(exchange, 200, { object: "list", data: fakeOpenaiModels.map(toModelObject) });
    return;
  }
  const model = fakeOpenaiModels.find((candidate) => candidate.id === modelId);
  if (!model) {
    throw new OpenaiRequestError(
      404,
      `The model '${modelId}' does not exist`,
      "invalid_request_error",
      "model",
      "model_not_found",
    );
  }
  await sendJson(exchange, 200, toModelObject(model));
}

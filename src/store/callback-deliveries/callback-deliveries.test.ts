import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { findWebhookSecret } from "../webhook-secrets/find-webhook-secret.js";
import { upsertWebhookSecret } from "../webhook-secrets/upsert-webhook-secret.js";
import { insertCallbackDelivery } from "./insert-callback-delivery.js";
import { listCallbackDeliveries } from "./list-callback-deliveries.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("webhook secrets and callback deliveries on $name", ({ database }) => {
  const { db } = database;

  it("creates a user's secret, then rotates it in place", async () => {
    expect(await findWebhookSecret(db, 41)).toBeUndefined();
    await upsertWebhookSecret(db, { userId: 41, secretEncrypted: "v1.first", now: 100 });
    expect(await findWebhookSecret(db, 41)).toBe("v1.first");
    await upsertWebhookSecret(db, { userId: 41, secretEncrypted: "v1.second", now: 200 });
    expect(await findWebhookSecret(db, 41)).toBe("v1.second");
    const rows = await db.selectFrom("user_webhook_secrets").selectAll().where("user_id", "=", 41).execute();
    expect(rows.map((row) => [Number(row.created_time), Number(row.updated_time)])).toEqual([[100, 200]]);
  });

  it("records delivery attempts and lists them per task in order", async () => {
    await insertCallbackDelivery(db, {
      taskId: "task-a",
      attempt: 1,
      statusCode: 500,
      errorMessage: "answered HTTP 500",
      succeeded: false,
      createdTime: 10,
    });
    await insertCallbackDelivery(db, {
      taskId: "task-b",
      attempt: 1,
      statusCode: null,
      errorMessage: "refused",
      succeeded: false,
      createdTime: 11,
    });
    await insertCallbackDelivery(db, {
      taskId: "task-a",
      attempt: 2,
      statusCode: 204,
      errorMessage: null,
      succeeded: true,
      createdTime: 12,
    });
    expect(await listCallbackDeliveries(db, "task-a")).toEqual([
      {
        taskId: "task-a",
        attempt: 1,
        statusCode: 500,
        errorMessage: "answered HTTP 500",
        succeeded: false,
        createdTime: 10,
      },
      { taskId: "task-a", attempt: 2, statusCode: 204, errorMessage: null, succeeded: true, createdTime: 12 },
    ]);
  });
});

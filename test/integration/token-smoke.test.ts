import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("token smoke on $name", ({ database }) => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ database });
  });
  afterAll(async () => gateway.close());

  it("creates a token, lists it masked and reveals the full key", async () => {
    const created = await gateway.client.management.POST("/api/token/", { body: { name: "smoke", remain_quota: 100 } });
    expect(created.data).toEqual({ success: true, message: "" });
    const list = await gateway.client.management.GET("/api/token/", { params: { query: {} } });
    const token = list.data!.data.items.find((item) => item.name === "smoke")!;
    expect(token.key).toMatch(/^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
    const revealed = await gateway.client.management.POST("/api/token/{id}/key", {
      params: { path: { id: token.id } },
    });
    expect(revealed.data!.data.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(revealed.data!.data.key.slice(0, 4)).toBe(token.key.slice(0, 4));
  });
});

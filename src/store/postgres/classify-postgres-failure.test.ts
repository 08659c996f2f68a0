import { describe, expect, it } from "vitest";
import { classifyPostgresFailure } from "./create-postgres-pool.js";

const failure = (code?: string) => Object.assign(new Error("failed"), code === undefined ? {} : { code });

describe("classifyPostgresFailure", () => {
  it("keeps the connection for a statement's own error (a constraint, a syntax error)", () => {
    expect(classifyPostgresFailure(failure("23505"))).toBe("sql");
    expect(classifyPostgresFailure(failure("42601"))).toBe("sql");
  });

  it("drops the connection when the server or the network ended it", () => {
    expect(classifyPostgresFailure(failure("57P01"))).toBe("connection");
    expect(classifyPostgresFailure(failure("08006"))).toBe("connection");
    expect(classifyPostgresFailure(failure())).toBe("connection");
  });

  it("answers unavailable (503, try again) for cancelled work: timeouts, exhaustion, deadlocks, serialization failures", () => {
    expect(classifyPostgresFailure(failure("57014"))).toBe("unavailable");
    expect(classifyPostgresFailure(failure("53300"))).toBe("unavailable");
    expect(classifyPostgresFailure(failure("40P01"))).toBe("unavailable");
    expect(classifyPostgresFailure(failure("40001"))).toBe("unavailable");
  });
});

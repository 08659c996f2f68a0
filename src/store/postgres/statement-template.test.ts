import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from "kysely";
import { describe, expect, it, vi } from "vitest";
import type { Database } from "../database-schema.js";
import { createStatementTemplate, parameterFrom, templateValues } from "./statement-template.js";

/** A Kysely for PostgreSQL whose driver answers nothing, recording each query it was given to run. */
function recordingDatabase() {
  const executed: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (database) => new PostgresIntrospector(database),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      executed.push(event.query);
    },
  });
  return { db, executed };
}

interface Values {
  amount: number;
  tokenLimited: boolean;
}

describe("createStatementTemplate", () => {
  it("compiles once and runs each time with the values read into their places", async () => {
    const { db, executed } = recordingDatabase();
    const compile = vi.spyOn(db.getExecutor(), "compileQuery");
    const values = templateValues<Values>();
    const limited = parameterFrom<Values>((run) => (run.tokenLimited ? 1 : 0));
    const template = createStatementTemplate<Values, unknown>(
      db,
      sql`select ${values.amount}::bigint, ${limited}::integer, ${"fixed"}::text, ${values.amount}::bigint`,
    );

    await template.execute({ amount: 60, tokenLimited: true });
    await template.execute({ amount: 7, tokenLimited: false });

    expect(compile).toHaveBeenCalledTimes(1);
    expect(executed.map((query) => query.sql)).toEqual([
      "select $1::bigint, $2::integer, $3::text, $4::bigint",
      "select $1::bigint, $2::integer, $3::text, $4::bigint",
    ]);
    // The same string each run: the pool names a prepared statement by its text (a cached hash, not a new one).
    expect(executed[1]!.sql).toBe(executed[0]!.sql);
    expect(executed.map((query) => query.parameters)).toEqual([
      [60, 1, "fixed", 60],
      [7, 0, "fixed", 7],
    ]);
  });

  it("compiles nothing until its first run", () => {
    const { db } = recordingDatabase();
    const compile = vi.spyOn(db.getExecutor(), "compileQuery");
    createStatementTemplate<Values, unknown>(db, sql`select ${templateValues<Values>().amount}::bigint`);
    expect(compile).not.toHaveBeenCalled();
  });
});

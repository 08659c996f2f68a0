import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cachePreparedStatements } from "./cache-prepared-statements.js";

describe("cachePreparedStatements", () => {
  it("prepares one SQL text once, keeps at most the given number, and still runs every statement correctly", () => {
    const connection = new BetterSqlite3(":memory:");
    const database = cachePreparedStatements(connection, { maximumStatements: 2 });
    database.prepare("create table t (x integer)").run([]);
    const insert = database.prepare("insert into t (x) values (?)");
    expect(database.prepare("insert into t (x) values (?)")).toBe(insert);
    insert.run([1]);
    database.prepare("insert into t (x) values (?)").run([2]);
    const select = database.prepare("select x from t order by x");
    expect(select.all([])).toEqual([{ x: 1 }, { x: 2 }]);
    // a third text evicts the oldest: the insert is prepared anew
    database.prepare("select count(*) as n from t");
    expect(database.prepare("insert into t (x) values (?)")).not.toBe(insert);
    database.close();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../open-database.js";
import { createCommitWindow } from "./create-commit-window.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A file database (so a second connection can tell what is committed) with one table. */
function openFileConnections(): { writer: BetterSqlite3.Database; reader: BetterSqlite3.Database } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "commit-window-"));
  folders.push(folder);
  const writer = new BetterSqlite3(path.join(folder, "test.db"));
  writer.pragma("journal_mode = WAL");
  writer.exec("create table t (id text primary key, n integer)");
  return { writer, reader: new BetterSqlite3(path.join(folder, "test.db"), { readonly: true }) };
}

const countCommitted = (reader: BetterSqlite3.Database) =>
  (reader.prepare("select count(*) as count from t").get() as { count: number }).count;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createCommitWindow", () => {
  it("applies each call at once, visible on its connection, and commits them together when the window closes", async () => {
    const { writer, reader } = openFileConnections();
    const errors: unknown[] = [];
    const window = createCommitWindow(writer, { intervalMs: 30, onCommitError: (error) => errors.push(error) });
    const insert = writer.prepare("insert into t (id, n) values (?, ?)");
    const results = await Promise.all(["a", "b", "c"].map((id, n) => window.run(() => insert.run(id, n).changes)));
    expect(results).toEqual([1, 1, 1]);
    expect((writer.prepare("select count(*) as count from t").get() as { count: number }).count).toBe(3);
    expect(countCommitted(reader)).toBe(0);
    await wait(60);
    expect(countCommitted(reader)).toBe(3);
    expect(writer.inTransaction).toBe(false);
    expect(errors).toEqual([]);
  });

  it("commits at once on commitNow", async () => {
    const { writer, reader } = openFileConnections();
    const window = createCommitWindow(writer, { intervalMs: 10_000, onCommitError: () => undefined });
    await window.run(() => writer.prepare("insert into t (id, n) values ('x', 1)").run());
    expect(countCommitted(reader)).toBe(0);
    window.commitNow();
    expect(countCommitted(reader)).toBe(1);
  });

  it("rolls back only the failing call: the others of its window commit", async () => {
    const { writer, reader } = openFileConnections();
    const window = createCommitWindow(writer, { intervalMs: 5, onCommitError: () => undefined });
    writer.prepare("insert into t (id, n) values ('taken', 0)").run();
    const insertTwice = (id: string) =>
      window.run(() => {
        writer.prepare("insert into t (id, n) values (?, 1)").run(`${id}-first`);
        writer.prepare("insert into t (id, n) values (?, 2)").run(id);
        return id;
      });
    const outcomes = await Promise.allSettled([insertTwice("x"), insertTwice("taken"), insertTwice("y")]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    await wait(30);
    const ids = (reader.prepare("select id from t order by id").all() as Array<{ id: string }>).map((row) => row.id);
    // 'taken-first' was written inside the failing call's savepoint and rolled back with it
    expect(ids).toEqual(["taken", "x", "x-first", "y", "y-first"]);
  });

  it("waits while a transaction that is not its own is open, so its writes never join (or roll back with) that one", async () => {
    const { writer, reader } = openFileConnections();
    const window = createCommitWindow(writer, { intervalMs: 5, onCommitError: () => undefined });
    writer.exec("begin");
    let resolved = false;
    const pending = window
      .run(() => writer.prepare("insert into t (id, n) values ('later', 1)").run().changes)
      .then(() => {
        resolved = true;
      });
    await wait(20);
    expect(resolved).toBe(false);
    writer.exec("rollback");
    await pending;
    await wait(30);
    expect(reader.prepare("select id from t").all()).toEqual([{ id: "later" }]);
  });

  it("reports a commit that fails and leaves the connection usable", async () => {
    const { writer } = openFileConnections();
    const errors: unknown[] = [];
    const window = createCommitWindow(writer, { intervalMs: 10_000, onCommitError: (error) => errors.push(error) });
    // A deferred foreign key fails at commit time, not at the insert.
    writer.exec(
      "pragma foreign_keys = on; create table child (parent text references t(id) deferrable initially deferred)",
    );
    await window.run(() => writer.prepare("insert into child (parent) values ('missing')").run());
    window.commitNow();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/FOREIGN KEY/);
    expect(writer.inTransaction).toBe(false);
    await window.run(() => writer.prepare("insert into t (id, n) values ('after', 1)").run());
    window.commitNow();
    expect(errors).toHaveLength(1);
  });

  it("through openDatabase: a Kysely write or transaction first commits the open window", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "commit-window-"));
    folders.push(folder);
    const file = path.join(folder, "gateway.db");
    const database = await openDatabase(`sqlite:${file}`, { sqliteCommitIntervalMs: 10_000 });
    try {
      const connection = database.sqliteConnection!;
      connection.exec("create table ledger_probe (id integer primary key)");
      await database.sqliteCommitWindow!.run(() =>
        connection.prepare("insert into ledger_probe (id) values (1)").run(),
      );
      const reader = new BetterSqlite3(file, { readonly: true });
      const committedProbes = () =>
        (reader.prepare("select count(*) as count from ledger_probe").get() as { count: number }).count;
      expect(committedProbes()).toBe(0);
      await database.db.transaction().execute(async (transaction) => {
        await transaction
          .insertInto("users")
          .values({ username: "window-probe", password_hash: "x", display_name: "", role: "user", created_time: 0 })
          .execute();
      });
      expect(committedProbes()).toBe(1);
      expect(
        (
          reader.prepare("select count(*) as count from users where username = 'window-probe'").get() as {
            count: number;
          }
        ).count,
      ).toBe(1);
      reader.close();
    } finally {
      await database.close();
    }
  });

  it("runs deferred work back to back before the commit, reporting a failing item while the others still run", async () => {
    const { writer, reader } = openFileConnections();
    const errors: unknown[] = [];
    const deferredErrors: unknown[] = [];
    const window = createCommitWindow(writer, {
      intervalMs: 10_000,
      onCommitError: (error) => errors.push(["commit", error]),
      onDeferredError: (error) => deferredErrors.push(error),
    });
    const insert = writer.prepare("insert into t (id, n) values (?, ?)");
    const itemErrors: unknown[] = [];
    window.defer(() => void insert.run("d1", 1));
    window.defer(
      () => void insert.run("d1", 2),
      (error) => itemErrors.push(error),
    );
    window.defer(() => void insert.run("d2", 3));
    window.defer(() => void insert.run("d2", 4));
    await wait(0);
    // Queued, not yet written: nothing asked for it.
    expect((writer.prepare("select count(*) as count from t").get() as { count: number }).count).toBe(0);
    window.commitNow();
    expect(writer.prepare("select id, n from t order by id").all()).toEqual([
      { id: "d1", n: 1 },
      { id: "d2", n: 3 },
    ]);
    expect(countCommitted(reader)).toBe(2);
    expect(itemErrors).toHaveLength(1);
    expect(String(itemErrors[0])).toContain("UNIQUE");
    // Without its own handler a failing item goes to the window's onDeferredError, not to onCommitError.
    expect(deferredErrors).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("through openDatabase: deferred work runs before any Kysely query, a read included", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "commit-window-"));
    folders.push(folder);
    const database = await openDatabase(`sqlite:${path.join(folder, "gateway.db")}`, {
      sqliteCommitIntervalMs: 10_000,
    });
    try {
      const connection = database.sqliteConnection!;
      database.sqliteCommitWindow!.defer(
        () =>
          void connection
            .prepare(
              "insert into users (username, password_hash, display_name, role, created_time) values ('deferred', 'x', '', 'user', 0)",
            )
            .run(),
      );
      await wait(0);
      const found = await database.db
        .selectFrom("users")
        .select("username")
        .where("username", "=", "deferred")
        .execute();
      expect(found).toEqual([{ username: "deferred" }]);
      // A read does not commit: the window stays open until its interval or a write.
      expect(connection.inTransaction).toBe(true);
    } finally {
      await database.close();
    }
  });

  it("deferDurably resolves only once committed, bringing the commit forward and sharing it within one turn", async () => {
    const { writer, reader } = openFileConnections();
    let commits = 0;
    const window = createCommitWindow(writer, { intervalMs: 60_000, onCommitError: (error) => console.error(error) });
    window.beforeCommit(() => {
      commits += 1;
    });
    const insert = writer.prepare("insert into t (id, n) values (?, ?)");
    const durable = ["a", "b", "c"].map((id, n) =>
      window.deferDurably(() => void insert.run(id, n)).then(() => countCommitted(reader)),
    );
    // Each sees every write of its turn committed, with one commit for the three, long before the interval.
    expect(await Promise.all(durable)).toEqual([3, 3, 3]);
    expect(commits).toBe(1);
  });

  it("deferDurably rejects when the work fails, so nobody answers as if it were billed", async () => {
    const { writer } = openFileConnections();
    const window = createCommitWindow(writer, {
      intervalMs: 60_000,
      onCommitError: () => undefined,
      onDeferredError: () => undefined,
    });
    const failing = writer.prepare("insert into t (id, n) values ('same', 1)");
    await window.deferDurably(() => void failing.run());
    await expect(window.deferDurably(() => void failing.run())).rejects.toThrow(/UNIQUE/);
  });
});

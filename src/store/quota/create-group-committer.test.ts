import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createGroupCommitter } from './create-group-committer.js';

function openConnection(): BetterSqlite3.Database {
  const connection = new BetterSqlite3(':memory:');
  connection.exec('create table t (id text primary key, n integer)');
  return connection;
}

describe('createGroupCommitter', () => {
  it('runs every call inside a transaction, each resolving with its own result', async () => {
    const connection = openConnection();
    const insert = connection.prepare('insert into t (id, n) values (?, ?)');
    let transactionsSeen = 0;
    const write = createGroupCommitter(connection, (input: { id: string; n: number }) => {
      if (!connection.inTransaction) throw new Error('not in a transaction');
      transactionsSeen += 1;
      return insert.run(input.id, input.n).changes;
    });
    const results = await Promise.all([write({ id: 'a', n: 1 }), write({ id: 'b', n: 2 }), write({ id: 'c', n: 3 })]);
    expect(results).toEqual([1, 1, 1]);
    expect(transactionsSeen).toBe(3);
    expect(connection.prepare('select count(*) as count from t').get()).toEqual({ count: 3 });
  });

  it('rolls back only the failing call: the others of its group commit', async () => {
    const connection = openConnection();
    const insertTwice = createGroupCommitter(connection, (id: string) => {
      connection.prepare('insert into t (id, n) values (?, 1)').run(`${id}-first`);
      connection.prepare('insert into t (id, n) values (?, 2)').run(id);
      return id;
    });
    connection.prepare("insert into t (id, n) values ('taken', 0)").run();
    const outcomes = await Promise.allSettled([insertTwice('x'), insertTwice('taken'), insertTwice('y')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = (connection.prepare('select id from t order by id').all() as Array<{ id: string }>).map((row) => row.id);
    // 'taken-first' was written inside the failing call's savepoint and rolled back with it
    expect(ids).toEqual(['taken', 'x', 'x-first', 'y', 'y-first']);
  });

  it('waits while another transaction is open on the connection, so its writes never join that one', async () => {
    const connection = openConnection();
    const write = createGroupCommitter(connection, (id: string) => connection.prepare('insert into t (id, n) values (?, 1)').run(id).changes);
    connection.exec('begin');
    let resolved = false;
    const pending = write('later').then(() => {
      resolved = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolved).toBe(false);
    connection.exec('rollback');
    await pending;
    expect(connection.prepare('select id from t').all()).toEqual([{ id: 'later' }]);
  });
});

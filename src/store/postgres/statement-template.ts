import type { CompiledQuery, Kysely, QueryResult, RawBuilder } from "kysely";
import type { Database } from "../database-schema.js";

/**
 * A statement built once with Kysely's `sql` from placeholders and run many times with values. Building a statement
 * with `sql` and compiling it cost the gateway more than the pg driver did on the ledger's lone statements — every
 * fragment a frozen node, every node visited again — though their text never changes, only their values (bench/
 * profile-findings.md, "Lone statements compiled once"). A template compiles on its first run; each run then only
 * reads its parameters from the values and hands Kysely the compiled query, whose text is then the same string
 * every time (the pool names a prepared statement by that text, create-postgres-pool.ts).
 */
export interface StatementTemplate<Values, Row> {
  execute(values: Values): Promise<QueryResult<Row>>;
}

/** Where a value goes into a template: read from the values of each run. */
export class TemplateParameter<Values> {
  constructor(readonly read: (values: Values) => unknown) {}
}

/** A parameter computed from the values of a run (what a plain field of them cannot give). */
export function parameterFrom<Values>(read: (values: Values) => unknown): TemplateParameter<Values> {
  return new TemplateParameter(read);
}

/**
 * The placeholders of a template's values, one per field: `${values.amount}` in `sql` reads `amount` at each run.
 * Only for building: what a field holds is not known until a run.
 */
export function templateValues<Values extends object>(): {
  readonly [Field in keyof Values]: TemplateParameter<Values>;
} {
  const placeholders = new Map<PropertyKey, TemplateParameter<Values>>();
  return new Proxy({} as { readonly [Field in keyof Values]: TemplateParameter<Values> }, {
    get(_target, field) {
      let placeholder = placeholders.get(field);
      if (placeholder === undefined) {
        placeholder = new TemplateParameter((values) => values[field as keyof Values]);
        placeholders.set(field, placeholder);
      }
      return placeholder;
    },
  });
}

/** `statement` built from placeholders (templateValues, parameterFrom), compiled for `db` on its first run. */
export function createStatementTemplate<Values, Row>(
  db: Kysely<Database>,
  statement: RawBuilder<Row>,
): StatementTemplate<Values, Row> {
  let compiled: CompiledQuery<Row> | undefined;
  return {
    execute(values) {
      compiled ??= statement.compile(db);
      const parameters = compiled.parameters.map((parameter) =>
        parameter instanceof TemplateParameter ? (parameter as TemplateParameter<Values>).read(values) : parameter,
      );
      return db.executeQuery<Row>({ ...compiled, parameters });
    },
  };
}

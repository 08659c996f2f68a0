import type { ContractContext } from "./contract-context.js";
import type { ContractOutcome } from "./contract-outcome.js";
import { prepareOperationCall, type CallVariant } from "./prepare-operation-call.js";
import type { SpecOperation } from "./read-spec-operations.js";
import { relaxMapExamples } from "./relax-map-examples.js";

/** The parts of a Dredd 14 transaction the hooks read and change. */
export interface DreddTransaction {
  name: string;
  skip: boolean;
  fullPath: string;
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string };
  origin: { resourceName: string };
}

export interface DreddHooks {
  beforeEach(hook: (transaction: DreddTransaction, done: () => void) => void): void;
  afterEach(hook: (transaction: DreddTransaction) => void): void;
  beforeEachValidation(
    hook: (transaction: DreddTransaction & { real?: { headers: Record<string, string>; body?: string } }) => void,
  ): void;
}

export interface DreddHookOptions {
  context: ContractContext;
  operations: SpecOperation[];
  /** `generation.operationId` of the operations that still answer 501. */
  pending: Set<string>;
  outcome: ContractOutcome;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * Per transaction: find its operation, skip what Dredd cannot or must not check (pending operations, streams,
 * multipart, statuses that cannot be provoked from outside), and rewrite the rest into a request the gateway
 * answers with the expected status, with seeded ids and the generation's credentials.
 */
export function createDreddHooks(options: DreddHookOptions): (hooks: DreddHooks) => void {
  const byRoute = new Map(
    options.operations.map((operation) => [`${operation.method} ${operation.pathTemplate}`, operation]),
  );
  return (hooks) => {
    hooks.beforeEach((transaction, done) => {
      const operation = byRoute.get(`${transaction.request.method} ${transaction.origin.resourceName}`);
      const skip = (reason: string) => {
        transaction.skip = true;
        options.outcome.skipped.push({ name: `dredd ${operation?.generation ?? "?"}: ${transaction.name}`, reason });
        done();
      };
      if (!operation) return skip("no operation in the bundled spec matches this transaction");
      const label = `${operation.generation}.${operation.operationId}`;
      if (options.pending.has(label)) return skip("pending (answers 501)");
      const expectedType = headerValue(transaction.expected.headers, "content-type") ?? "";
      const requestType = headerValue(transaction.request.headers, "content-type") ?? "";
      if (expectedType.startsWith("text/event-stream"))
        return skip("streaming answers are checked event by event elsewhere");
      if (requestType.startsWith("multipart/")) return skip("multipart requests are checked elsewhere");
      const status = transaction.expected.statusCode as CallVariant;
      const primaryType = operation.successContentTypes.find((type) => type !== "text/event-stream");
      if (status === "200" && primaryType && expectedType && !expectedType.startsWith(primaryType)) {
        return skip(`alternative success media type (${primaryType} is checked)`);
      }
      prepareOperationCall(operation, status, options.context, options.operations).then(
        (prepared) => {
          if ("skip" in prepared) return skip(prepared.skip);
          const { call } = prepared;
          if (call.body instanceof FormData) return skip("multipart requests are checked elsewhere");
          transaction.request.uri = call.path;
          transaction.fullPath = call.path;
          transaction.request.headers = {
            "User-Agent": headerValue(transaction.request.headers, "user-agent") ?? "Dredd",
            ...call.headers,
          };
          transaction.request.body = call.body ?? "";
          options.context.setUpstreamFault(call.upstreamFault);
          const responseSchema = operation.jsonResponseSchemas[status];
          if (transaction.expected.body && responseSchema) {
            transaction.expected.body = JSON.stringify(
              relaxMapExamples(JSON.parse(transaction.expected.body), responseSchema, operation.document),
            );
          }
          done();
        },
        (error: Error) => {
          (transaction as DreddTransaction & { fail?: string }).fail =
            `could not prepare the request: ${error.message}`;
          done();
        },
      );
    });
    // Dredd calls a hook synchronously only when it declares exactly one parameter; with none it waits forever.
    hooks.afterEach((_transaction) => options.context.setUpstreamFault(undefined));
    // Dredd compares Content-Type literally, so `application/json; charset=utf-8` would not match the documented
    // `application/json`; a media-type parameter does not change the contract.
    hooks.beforeEachValidation((transaction) => {
      const headers = transaction.real?.headers;
      const expected = headerValue(transaction.expected.headers, "content-type");
      if (!headers || !expected) return;
      // A CSV export's rows are data of the moment (ids, times): its contract is the header row, which must match
      // the example's; Dredd would otherwise compare the whole text literally.
      if (expected.startsWith("text/csv") && transaction.real && transaction.expected.body !== undefined) {
        const headerRow = (text: string) => text.split("\n", 1)[0]?.trim();
        if (headerRow(transaction.real.body ?? "") === headerRow(transaction.expected.body))
          transaction.expected.body = transaction.real.body ?? "";
      }
      for (const name of Object.keys(headers)) {
        if (
          name.toLowerCase() === "content-type" &&
          headers[name].split(";")[0].trim() === expected.split(";")[0].trim()
        )
          headers[name] = expected;
      }
    });
  };
}

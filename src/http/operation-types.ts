// Typed views of one generated operation: handlers take their input and output types only from generated/.

type ContentOf<T> = T extends { content: infer Content } ? Content : never;

/** The JSON request body of an operation. */
export type JsonRequestBody<Operation> = Operation extends { requestBody?: infer Body }
  ? ContentOf<NonNullable<Body>> extends { "application/json": infer Json }
    ? Json
    : never
  : never;

/** The multipart request body of an operation. */
export type MultipartRequestBody<Operation> = Operation extends { requestBody?: infer Body }
  ? ContentOf<NonNullable<Body>> extends { "multipart/form-data": infer Form }
    ? Form
    : never
  : never;

/** The JSON body of one response status of an operation. */
export type JsonResponseBody<Operation, Status extends number = 200> = Operation extends { responses: infer Responses }
  ? Status extends keyof Responses
    ? ContentOf<Responses[Status]> extends { "application/json": infer Json }
      ? Json
      : never
    : never
  : never;

/** The query parameters of an operation. */
export type QueryParameters<Operation> = Operation extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;

/** The path parameters of an operation. */
export type PathParameters<Operation> = Operation extends { parameters: { path?: infer Path } }
  ? NonNullable<Path>
  : never;

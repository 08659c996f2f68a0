import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express, Request, Response } from "express";

/**
 * What Express's `app.handle` does to a request before routing it (express/lib/application.js): the circular
 * references, the app's request/response prototypes (res.json, req.path, …) and `res.locals`. The URL fields the
 * router would set are set as at the top level (no mount path).
 */
export function adoptExpressObjects(
  app: Express,
  request: IncomingMessage,
  response: ServerResponse,
): { request: Request; response: Response } {
  const expressRequest = request as Request & { res: Response };
  const expressResponse = response as Response & { req: Request };
  expressRequest.res = expressResponse;
  expressResponse.req = expressRequest;
  // createGatewayServer's requests are born with these prototypes; any other server's get them here.
  if (Object.getPrototypeOf(request) !== app.request) Object.setPrototypeOf(request, app.request);
  if (Object.getPrototypeOf(response) !== app.response) Object.setPrototypeOf(response, app.response);
  if (!expressResponse.locals) expressResponse.locals = Object.create(null) as Response["locals"];
  expressRequest.originalUrl ??= request.url ?? "/";
  expressRequest.baseUrl = "";
  expressRequest.params = {};
  return { request: expressRequest, response: expressResponse };
}

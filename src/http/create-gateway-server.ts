import http from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";
import { answerClientError } from "./answer-client-error.js";

/**
 * The gateway's HTTP server for an Express app. Requests and responses are born with the app's Express
 * prototypes (req.path, res.json, …) instead of getting them by Object.setPrototypeOf on every request, which
 * V8 makes pay for a prototype change on a live object (the fast lane's profile showed it); Express's own
 * setPrototypeOf then finds the prototype already in place.
 */
export function createGatewayServer(app: Express): http.Server {
  function GatewayRequest(this: http.IncomingMessage, socket: Socket) {
    http.IncomingMessage.call(this, socket);
  }
  GatewayRequest.prototype = app.request;
  function GatewayResponse(this: http.ServerResponse, request: http.IncomingMessage, options?: unknown) {
    (
      http.ServerResponse as unknown as (
        this: http.ServerResponse,
        request: http.IncomingMessage,
        options?: unknown,
      ) => void
    ).call(this, request, options);
  }
  GatewayResponse.prototype = app.response;
  const server = http.createServer(
    {
      IncomingMessage: GatewayRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: GatewayResponse as unknown as typeof http.ServerResponse,
    },
    app,
  );
  server.on("clientError", answerClientError);
  return server;
}

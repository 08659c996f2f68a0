import http from "node:http";
import type { Express } from "express";
import { answerClientError } from "./answer-client-error.js";

/**
 * The gateway's HTTP server for an Express app. Requests and responses are born with the app's Express
 * prototypes (req.path, res.json, …) instead of getting them by Object.setPrototypeOf on every request, which
 * V8 makes pay for a prototype change on a live object (the fast lane's profile showed it); Express's own
 * setPrototypeOf then finds the prototype already in place.
 *
 * They are instances of subclasses of Node's own classes, and the subclasses' prototypes become the app's
 * `request` and `response` (Express's prototypes below them, the app's own `app` property on them). V8 then lays
 * them out as Node's own objects, one shape for all. Built instead by calling Node's constructor on `this` of a
 * plain function whose prototype was the app's, every response was born in dictionary mode (such a function's
 * objects have room for a handful of properties, Node adds about forty): ~3 KB more heap per open response and
 * slower property access on every use (the bench's open-streams point). `Reflect.construct` with such a function
 * as new target keeps the layout but gives every object a shape of its own, which is slower still.
 */
export function createGatewayServer(app: Express): http.Server {
  class GatewayRequest extends http.IncomingMessage {}
  class GatewayResponse extends http.ServerResponse {}
  app.request = adoptPrototype(GatewayRequest.prototype, app.request);
  app.response = adoptPrototype(GatewayResponse.prototype, app.response);
  const server = http.createServer(
    {
      IncomingMessage: GatewayRequest,
      ServerResponse: GatewayResponse,
    },
    app,
  );
  server.on("clientError", answerClientError);
  return server;
}

/** `classPrototype` set up to stand in for `appPrototype`: the same prototype below it and the same own properties. */
function adoptPrototype<Prototype extends object>(classPrototype: object, appPrototype: Prototype): Prototype {
  Object.setPrototypeOf(classPrototype, Object.getPrototypeOf(appPrototype));
  for (const key of Reflect.ownKeys(appPrototype))
    if (key !== "constructor")
      Object.defineProperty(classPrototype, key, Object.getOwnPropertyDescriptor(appPrototype, key)!);
  return classPrototype as Prototype;
}

import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { GatewayError } from "../errors/gateway-error.js";
import { selectApiGeneration } from "./api-generation.js";
import { renderErrorBody } from "./render-error-body.js";

interface ClientParseError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

function describeParseError(code: string | undefined): { status: number; message: string; code: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        message: "The request line and headers are larger than the server accepts (16 KB); send less in the query.",
        code: "request_header_fields_too_large",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "The request was not received in time.", code: "request_timeout" };
    default:
      return { status: 400, message: "The request is not valid HTTP.", code: "bad_request" };
  }
}

/**
 * Node's HTTP parser refuses some requests before the app sees them (a 20 KB query string, malformed framing) and
 * would answer with an empty body; this answers in the envelope of the generation the request line names (the
 * OpenAI-style one when it names none).
 */
export function answerClientError(error: ClientParseError, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message, code } = describeParseError(error.code);
  const requestLine = error.rawPacket?.subarray(0, 2048).toString("latin1").split("\r\n", 1)[0] ?? "";
  const path = requestLine.split(" ")[1] ?? "";
  const generation = selectApiGeneration(path) ?? "openai";
  const body = JSON.stringify(renderErrorBody(generation, new GatewayError(message, { status, code })));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

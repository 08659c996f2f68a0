import type { RequestHandler } from "express";
import { InvalidRequestError } from "../errors/gateway-error.js";

/**
 * The validator's multipart step answers every parse failure of multer and busboy (truncated body, wrong boundary,
 * malformed part headers, an unexpected field) as a 500; each is a broken request, so it becomes a 400 here. Its
 * 400 and 413 answers (field too long, file too large) pass unchanged.
 */
export function reportBrokenMultipart(multipartStep: RequestHandler): RequestHandler {
  return (request, response, next) =>
    multipartStep(request, response, (error?: unknown) => {
      const status = (error as { status?: unknown } | undefined)?.status;
      if (error === undefined || error === null || (typeof status === "number" && status < 500)) {
        next(error);
        return;
      }
      const reason = String((error as { message?: unknown }).message ?? "unreadable").slice(0, 100);
      next(
        new InvalidRequestError(`Request body is not valid multipart/form-data: ${reason}`, {
          code: "invalid_multipart",
          cause: error,
        }),
      );
    });
}

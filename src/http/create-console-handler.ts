import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler, type Response } from "express";
import { isApiPath } from "./is-api-path.js";

const immutableAssets = "public, max-age=31536000, immutable";
const alwaysRevalidate = "no-cache";
// The page shows full keys: it loads only its own files, talks only to this origin, and cannot be framed.
// Inline style attributes stay allowed (React sets a few, e.g. the chart legend's colours); inline scripts do not.
const pagePolicy = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

function setPageHeaders(response: Response): void {
  response.setHeader("Cache-Control", alwaysRevalidate);
  response.setHeader("Content-Security-Policy", pagePolicy);
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Referrer-Policy", "no-referrer");
}

/**
 * Serves the built web console (console/dist) at `/`. Vite names the files under assets/ after their content
 * hash, so they may be cached for a year; index.html names those files, so browsers must revalidate it. Any
 * other GET of a non-API path that is not a file is a page of the single-page app and gets index.html; API
 * prefixes never reach this handler's fallback, so their own 404 envelopes stay.
 */
export function createConsoleHandler(folder: string): RequestHandler {
  const indexFile = path.join(folder, "index.html");
  const serveFiles = express.static(folder, {
    index: false,
    fallthrough: true,
    setHeaders(response, filePath) {
      const relative = path.relative(folder, filePath);
      if (relative.startsWith(`assets${path.sep}`)) response.setHeader("Cache-Control", immutableAssets);
      else setPageHeaders(response);
      response.setHeader("X-Content-Type-Options", "nosniff");
    },
  });
  return (request, response, next) => {
    if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(request.path)) return next();
    serveFiles(request, response, () => {
      // A missing hashed asset is an old page asking for a file a newer build replaced: a 404, not the page.
      if (request.path.startsWith("/assets/")) return next();
      if (!fs.existsSync(indexFile)) {
        response
          .status(404)
          .type("text/plain")
          .send("The web console is not built: run `npm run build` (npm start does) to serve it here.");
        return;
      }
      setPageHeaders(response);
      response.sendFile(indexFile);
    });
  };
}

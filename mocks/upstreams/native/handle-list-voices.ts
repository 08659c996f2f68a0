import { createHash } from "node:crypto";
import { buildVoiceCatalogue, VOICE_CONTEXTS, type Voice } from "./build-voice-catalogue.js";
import type { NativeAnswer } from "./native-answer.js";
import { NativeUpstreamError } from "./native-upstream-error.js";
import { normalizeModelName } from "./normalize-model-name.js";

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;
const FILTER_NAMES = ["model", "language_code", "gender", "pitch", "context", "type", "search"];
const CATALOGUE = buildVoiceCatalogue();

/**
 * GET /v1beta/voices. Filters combine with AND; language_code repeats with OR and also matches by language
 * alone (`en` matches `en-GB`). page_size above 100 is lowered to 100. The page token is opaque and bound to
 * the filters it was issued for.
 */
export function handleListVoices(query: URLSearchParams): NativeAnswer {
  const model = query.get("model");
  if (!model) throw invalid("model is required");
  normalizeModelName(model);
  const matches = CATALOGUE.filter(buildVoiceFilter(query));
  const pageSize = readPageSize(query.get("page_size"));
  const filterSignature = signFilters(query);
  const offset = readPageToken(query.get("page_token"), filterSignature);
  const voices = matches.slice(offset, offset + pageSize);
  const nextOffset = offset + pageSize;
  const body: { voices: Voice[]; next_page_token?: string } = { voices };
  if (nextOffset < matches.length) body.next_page_token = writePageToken(nextOffset, filterSignature);
  return { kind: "json", status: 200, body };
}

function buildVoiceFilter(query: URLSearchParams): (voice: Voice) => boolean {
  const checks: Array<(voice: Voice) => boolean> = [];
  const languageCodes = query
    .getAll("language_code")
    .filter(Boolean)
    .map((code) => code.toLowerCase());
  if (languageCodes.length > 0) {
    checks.push((voice) => {
      const code = voice.language_code.toLowerCase();
      return languageCodes.some((wanted) => wanted === code || wanted === code.split("-")[0]);
    });
  }
  const gender = query.get("gender");
  if (gender) {
    const wanted = gender.toLowerCase();
    if (wanted !== "female" && wanted !== "male") throw invalid(`gender must be female or male, got "${gender}"`);
    checks.push((voice) => voice.gender === wanted);
  }
  const pitch = query.get("pitch");
  if (pitch) {
    const wanted = pitch.toUpperCase().replace(/^PITCH_/, "");
    if (!["LOW", "MEDIUM", "HIGH"].includes(wanted)) throw invalid(`pitch must be low, medium or high, got "${pitch}"`);
    checks.push((voice) => voice.pitch === `PITCH_${wanted}`);
  }
  const context = query.get("context");
  if (context) {
    const wanted = VOICE_CONTEXTS.find((known) => known.toLowerCase() === context.toLowerCase());
    if (!wanted) throw invalid(`context must be one of: ${VOICE_CONTEXTS.join(", ")}`);
    checks.push((voice) => voice.context === wanted);
  }
  const type = query.get("type");
  if (type) {
    const wanted = type.toUpperCase().startsWith("VOICE_TYPE_")
      ? type.toUpperCase()
      : `VOICE_TYPE_${type.toUpperCase()}`;
    checks.push((voice) => voice.type === wanted);
  }
  const search = query.get("search");
  if (search) {
    const terms = search.toLowerCase().split(/\s+/).filter(Boolean);
    checks.push((voice) => {
      const haystack = `${voice.display_name} ${voice.description}`.toLowerCase();
      return terms.every((term) => haystack.includes(term));
    });
  }
  return (voice) => checks.every((check) => check(voice));
}

function readPageSize(raw: string | null): number {
  if (raw === null || raw === "") return DEFAULT_PAGE_SIZE;
  const pageSize = Number(raw);
  if (!Number.isInteger(pageSize) || pageSize < 1) throw invalid(`page_size must be a positive integer, got "${raw}"`);
  return Math.min(pageSize, MAX_PAGE_SIZE);
}

function signFilters(query: URLSearchParams): string {
  const filters = FILTER_NAMES.map((name) => `${name}=${query.getAll(name).join(",")}`).join("&");
  return createHash("sha256").update(filters).digest("base64url").slice(0, 12);
}

function writePageToken(offset: number, signature: string): string {
  return Buffer.from(JSON.stringify({ offset, signature })).toString("base64url");
}

function readPageToken(token: string | null, signature: string): number {
  if (token === null || token === "") return 0;
  let decoded: { offset?: unknown; signature?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalid("Invalid page_token");
  }
  if (!Number.isInteger(decoded?.offset) || (decoded.offset as number) < 0) throw invalid("Invalid page_token");
  if (decoded.signature !== signature)
    throw invalid("page_token does not match the other query parameters of the request");
  return decoded.offset as number;
}

function invalid(message: string): NativeUpstreamError {
  return new NativeUpstreamError(400, message);
}

/**
 * An image request as the family rules see it, whichever path and form it came in: the client's own fields
 * (validator defaults removed, so a rule never mistakes a default for a choice), and the file parts of a
 * multipart edit.
 */
export interface ImageRequestFields {
  task: "generations" | "edits";
  kind: "json" | "multipart";
  /** The JSON body, or the multipart form's text fields (strings), as the client sent them. */
  body: Record<string, unknown>;
  /** Multipart file parts by field name (`image`, `image[]`, `mask`); empty for JSON. */
  files: ReadonlyArray<{ fieldname: string }>;
}

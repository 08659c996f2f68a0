/** Whether a database error is a unique-constraint violation, on SQLite (better-sqlite3) or PostgreSQL (pg). */
export function isUniqueViolation(error: unknown): boolean {
  if (error === null || typeof error !== "object" || !("code" in error)) return false;
  const { code } = error as { code: unknown };
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

export type DatabaseDialect = "sqlite" | "postgres";

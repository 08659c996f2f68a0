import type { Request } from "express";

/** `p` and `size` as the spec defines them (defaults 1 and 20); the validator has already range-checked them. */
export function readPageQuery(request: Request): { page: number; size: number } {
  const page = Number(request.query.p ?? 1);
  const size = Number(request.query.size ?? 20);
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    size: Number.isInteger(size) && size >= 1 ? size : 20,
  };
}

import type { PageWindow } from "../store/page-window.js";

/** `p` (1-based) and `size` as the store's limit/offset window. */
export function toPageWindow(page: number, size: number): PageWindow {
  return { limit: size, offset: (page - 1) * size };
}

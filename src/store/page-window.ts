/** Which rows of a paged list to return. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** Previous and next page buttons with "page N of M", for the paged lists. */
export function Pager({
  page,
  pageSize,
  total,
  label,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  label: string;
  onPage: (page: number) => void;
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pageCount} ({total} in all)
      </span>
      <button type="button" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

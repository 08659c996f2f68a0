import { useTranslation } from "react-i18next";
import { useFormat } from "../format/use-format";

/** Previous and next page buttons with "page N of M", for the paged lists; `label` names the list. */
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
  const { t } = useTranslation();
  const format = useFormat();
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("pager.previous")}
      </button>
      <span>
        {t("pager.position", {
          page: format.number(page),
          pageCount: format.number(pageCount),
          total: format.number(total),
          count: total,
        })}
      </span>
      <button type="button" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        {t("pager.next")}
      </button>
    </nav>
  );
}

import { useTranslation } from "react-i18next";
import { PageHeading } from "../components/page-heading";

/** What an unknown address shows (a mistyped link, or an administrators' page for a user), with a way back. */
export function NotFoundPage({
  path,
  home,
  onNavigate,
}: {
  path: string;
  home: { path: string; label: string };
  onNavigate: (path: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading>{t("notFound.title")}</PageHeading>
      <p>
        {t("notFound.explanation")} <code>{path}</code>
      </p>
      <p>
        <a
          href={home.path}
          onClick={(event) => {
            event.preventDefault();
            onNavigate(home.path);
          }}
        >
          {t("notFound.back", { page: home.label })}
        </a>
      </p>
    </>
  );
}

import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

// The first page after loading keeps the browser's own focus start (so Tab reaches the skip link first).
let firstPageShown = false;

/**
 * A page's h1. When the user moves to another page (or signs in), it takes the focus, so screen readers announce
 * where the user landed and Tab continues from the top of the new page's content.
 */
export function PageHeading({ children }: { children: string }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const brand = t("app.brand");
  useEffect(() => {
    document.title = `${children} · ${brand}`;
    if (firstPageShown) heading.current?.focus();
    firstPageShown = true;
  }, [children, brand]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

import { useEffect, useRef } from "react";

/** A page's h1, focused when the page opens so screen readers announce where the user landed. */
export function PageHeading({ children }: { children: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · AI API Gateway`;
    heading.current?.focus();
  }, [children]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

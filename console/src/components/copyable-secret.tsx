import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * A full key in a read-only field with a copy button. The clipboard API needs a secure context (https or
 * localhost); elsewhere the field's text is selected and copied the old way.
 */
export function CopyableSecret({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const field = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const [copied, setCopied] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      field.current?.select();
      document.execCommand("copy");
    }
    setCopied(t("secret.copied", { label }));
  }
  return (
    <div className="secret">
      <label htmlFor={fieldId}>{label}</label>
      <input
        id={fieldId}
        ref={field}
        readOnly
        value={value}
        spellCheck={false}
        onFocus={(event) => event.target.select()}
      />
      <button type="button" onClick={copy} aria-label={t("secret.copyLabel", { label })}>
        {t("secret.copy")}
      </button>
      <span role="status" className="hint">
        {copied}
      </span>
    </div>
  );
}

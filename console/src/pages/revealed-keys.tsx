import { useTranslation } from "react-i18next";
import { CopyableSecret } from "../components/copyable-secret";

export interface RevealedKey {
  id: number;
  name: string;
  key: string;
}

/** Full keys the user asked to see, as `sk-<key>` (the form clients send), each with a copy button. */
export function RevealedKeys({ keys, onHide }: { keys: RevealedKey[]; onHide: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="revealed-keys" aria-labelledby="revealed-keys-heading">
      <h2 id="revealed-keys-heading">{t("revealedKeys.title")}</h2>
      <p className="hint">{t("revealedKeys.warning")}</p>
      {keys.map((entry) => (
        <CopyableSecret
          key={entry.id}
          label={t("revealedKeys.keyOf", { name: entry.name })}
          value={`sk-${entry.key}`}
        />
      ))}
      <button type="button" onClick={onHide}>
        {t("revealedKeys.hide")}
      </button>
    </section>
  );
}

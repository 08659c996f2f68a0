import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./catalogue-en";
import { zhCn } from "./catalogue-zh-cn";

export const languages = ["en", "zh-CN"] as const;
export type Language = (typeof languages)[number];

// The user's choice outlives the tab (unlike the access token): it is a preference, not a secret.
const languageStorageKey = "gateway-console-language";

/** The remembered choice, else the first of the browser's languages the console speaks, else English. */
export function pickLanguage(saved: string | null, browserLanguages: readonly string[]): Language {
  const remembered = languages.find((language) => language === saved);
  if (remembered) return remembered;
  for (const wanted of browserLanguages) {
    const lower = wanted.toLowerCase();
    if (lower.startsWith("zh")) return "zh-CN";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(languageStorageKey, language);
  void i18next.changeLanguage(language);
}

i18next.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, "zh-CN": { translation: zhCn } },
  lng: pickLanguage(localStorage.getItem(languageStorageKey), navigator.languages ?? [navigator.language]),
  fallbackLng: "en",
  supportedLngs: languages,
  // React escapes what it renders; escaping here too would show &amp; and the like.
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18next };

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Language, languages, rememberLanguage } from "../i18n/setup-i18n";
import { loadTheme, rememberTheme, type Theme, themes } from "../theme/theme-preference";

/** The language and colour theme pickers, on the sign-in page and in the top bar; both are remembered. */
export function PreferenceSwitches() {
  const { t, i18n } = useTranslation();
  const [theme, setTheme] = useState<Theme>(loadTheme);
  const themeNames: Record<Theme, string> = {
    system: t("preferences.themeSystem"),
    light: t("preferences.themeLight"),
    dark: t("preferences.themeDark"),
  };
  const languageNames: Record<Language, string> = { en: t("preferences.english"), "zh-CN": t("preferences.chinese") };
  return (
    <div className="preferences">
      <label className="inline">
        {t("preferences.language")}
        <select value={i18n.language} onChange={(event) => rememberLanguage(event.target.value as Language)}>
          {languages.map((language) => (
            <option key={language} value={language} lang={language}>
              {languageNames[language]}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        {t("preferences.theme")}
        <select
          value={theme}
          onChange={(event) => {
            const chosen = event.target.value as Theme;
            rememberTheme(chosen);
            setTheme(chosen);
          }}
        >
          {themes.map((candidate) => (
            <option key={candidate} value={candidate}>
              {themeNames[candidate]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

export const themes = ["system", "light", "dark"] as const;
export type Theme = (typeof themes)[number];

const themeStorageKey = "gateway-console-theme";

export function loadTheme(): Theme {
  const saved = localStorage.getItem(themeStorageKey);
  return themes.find((theme) => theme === saved) ?? "system";
}

/**
 * "system" leaves the colours to prefers-color-scheme (styles.css); light or dark pins them with a data-theme
 * attribute on <html>, which the stylesheet reads before the media query.
 */
export function applyTheme(theme: Theme): void {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function rememberTheme(theme: Theme): void {
  localStorage.setItem(themeStorageKey, theme);
  applyTheme(theme);
}

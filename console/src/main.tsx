import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import "./i18n/setup-i18n";
import { applyTheme, loadTheme } from "./theme/theme-preference";
import "./styles.css";

// Before the first render, so a dark page never flashes light.
applyTheme(loadTheme());

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

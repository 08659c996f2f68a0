import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The console is built into console/dist, which the gateway serves at `/` (src/http/create-console-handler.ts).
// Everything is bundled: the page loads nothing from any host but the gateway.
export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  plugins: [react()],
  // `npm run dev:console`: the pages from Vite, the APIs from a gateway running on port 3000.
  server: {
    proxy: Object.fromEntries(["/api", "/v1", "/v1beta"].map((prefix) => [prefix, "http://localhost:3000"])),
  },
  build: {
    outDir: path.join(import.meta.dirname, "dist"),
    emptyOutDir: true,
    assetsInlineLimit: 0,
  },
});

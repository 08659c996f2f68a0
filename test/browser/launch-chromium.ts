import fs from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium driven by playwright-core (`.ci/run` installs it with apt-get when it is missing). */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath))
    throw new Error(`${chromiumPath} is missing: install it with \`apt-get install -y chromium\` (.ci/run does).`);
  // Root in a container has no user namespace for Chromium's sandbox; the pages are our own, on 127.0.0.1.
  return chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
}

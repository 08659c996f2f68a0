import { spawn } from "node:child_process";
import path from "node:path";

/** Builds the console from its current sources into `outDir` (the browser tests never run a stale build). */
export async function buildConsole(projectRoot: string, outDir: string): Promise<void> {
  const vite = path.join(projectRoot, "node_modules", ".bin", "vite");
  const args = [
    "build",
    "--config",
    "console/vite.config.ts",
    "--outDir",
    outDir,
    "--emptyOutDir",
    "--logLevel",
    "warn",
  ];
  const output: string[] = [];
  const code = await new Promise<number>((resolve) => {
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build; test what npm start serves.
    const env = { ...process.env, NODE_ENV: "production" };
    const child = spawn(vite, args, { cwd: projectRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.on("close", (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0) throw new Error(`vite build failed (${code}):\n${output.join("")}`);
}

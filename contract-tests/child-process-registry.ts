import type { ChildProcess } from "node:child_process";

const running = new Set<ChildProcess>();

/** The helper processes (Prism) the harness started, so an abort can stop every one of them. */
export const childProcessRegistry = {
  add(child: ChildProcess): void {
    running.add(child);
    child.once("exit", () => running.delete(child));
  },
  stopAll(): void {
    for (const child of running) child.kill("SIGTERM");
  },
};

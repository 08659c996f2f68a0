import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "mocks/**/*.test.ts", "scripts/**/*.test.ts", "contract-tests/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // Integration files share PostgreSQL and the fake upstreams' ports; running them one file at a time
          // keeps the 2-core CI machine predictable.
          fileParallelism: false,
        },
      },
    ],
  },
});

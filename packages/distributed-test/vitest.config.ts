import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    ...sharedTestConfig,
    // One cluster of ~15 processes per run: its files must not run side by side.
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

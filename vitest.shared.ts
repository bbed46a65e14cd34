// Test settings every package's vitest.config.ts uses.
export const sharedTestConfig = {
  testTimeout: 30_000,
  // Set-up starts real PostgreSQL databases, services and git repositories.
  hookTimeout: 120_000,
  // Test files wait on PostgreSQL, git, gRPC and HTTP far more than they compute: on a 2-core machine
  // vitest's default (cores - 1, so one file at a time) leaves the CPU idle for most of the run.
  maxWorkers: 3,
};

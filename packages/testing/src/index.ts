export { createTestDatabase, testPostgresServer } from "./postgres.ts";
export type { TestDatabase } from "./postgres.ts";
export { waitFor } from "./wait.ts";
export type { WaitForOptions } from "./wait.ts";
export { refsIn, startGitHttpRemote } from "./git-http-remote.ts";
export type { GitHttpRemote } from "./git-http-remote.ts";
export { startTestDnsServer } from "./dns-server.ts";
export type { TestDnsServer } from "./dns-server.ts";

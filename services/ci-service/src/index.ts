export { startCiService, type CiServiceOptions, type RunningCiService } from "./server.ts";
export { objectStoreFromEnv, storageKind, type StorageKind } from "./storage.ts";
export { ciEnvShape, loadCiEnv } from "./env.ts";
export { parseCiRoles, type CiRole } from "./roles.ts";
export type { CiSettings } from "./deps.ts";

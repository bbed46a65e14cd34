export { startCollabService, type CollabServiceOptions, type RunningCollabService } from "./server.ts";
export { collabEnvShape, loadCollabEnv } from "./env.ts";

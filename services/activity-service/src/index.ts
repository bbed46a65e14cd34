export { startActivityService, type ActivityServiceOptions, type RunningActivityService } from "./server.ts";
export { loadActivityEnv, activityEnvShape } from "./env.ts";

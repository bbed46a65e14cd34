export { startErrorTrackingService, type ErrorTrackingServiceOptions, type RunningErrorTrackingService } from "./server.ts";
export { loadErrorTrackingEnv, errorTrackingEnvShape } from "./env.ts";

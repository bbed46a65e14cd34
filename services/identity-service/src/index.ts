export { startIdentityService, type IdentityServiceOptions, type RunningIdentityService } from "./server.ts";
export { identityEnvShape, loadIdentityEnv } from "./env.ts";

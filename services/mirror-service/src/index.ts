export { startMirrorService, type MirrorServiceOptions, type RunningMirrorService } from "./server.ts";
export { loadMirrorEnv, mirrorEnvShape } from "./env.ts";

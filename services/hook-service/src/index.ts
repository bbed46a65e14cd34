export { startHookService, type HookServiceOptions, type RunningHookService } from "./server.ts";
export { DEFAULT_SUBJECTS, DURABLES, type HookSubjects } from "./hook/subscriptions.ts";
export { hookEnvShape, loadHookEnv } from "./env.ts";

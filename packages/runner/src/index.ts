export { startRunner, verifyRunner, type Runner, type RunnerOptions } from "./runner.ts";
export type { RunnerLog } from "./log.ts";
export { loadRunnerEnv, type RunnerEnv } from "./env.ts";

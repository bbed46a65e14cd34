import { envInt, parseEnv, z } from "@quarry/env";

/** quarry-runner configuration; with jobBaseEnvironment the only module that reads process.env. */
export const runnerEnvShape = {
  /** GitLab (or Quarry) base URL without /api/v4, e.g. http://127.0.0.1:8080. */
  QUARRY_RUNNER_URL: z.string().url().optional(),
  /** Runner authentication token (glrt-...). */
  QUARRY_RUNNER_TOKEN: z.string().optional(),
  QUARRY_RUNNER_BUILDS_DIR: z.string().default("./data/builds"),
  QUARRY_RUNNER_CONCURRENCY: envInt(1).pipe(z.number().min(1)),
  LOG_LEVEL: z.string().default("info"),
};

export type RunnerEnv = ReturnType<typeof loadRunnerEnv>;

export function loadRunnerEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv(runnerEnvShape, source);
}

/**
 * Variables of the runner's own environment that jobs inherit. A whitelist rather than the whole
 * environment: in the one-process launcher that environment holds database URLs, object-store
 * keys and this runner's token, none of which a CI script should see.
 */
const inheritedNames = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
];

export function jobBaseEnvironment(source: Record<string, string | undefined> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of inheritedNames) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

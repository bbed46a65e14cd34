// The real git (and ssh) CLI as the end-to-end tests run it: asynchronously, because the stack
// serves from the test's own process, with a throwaway HOME, no system config, no credential
// prompts and a fixed author.
import { execFile } from "node:child_process";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a test's git: `home` as HOME, no system config, no prompts, author and committer "Dev". */
export function gitEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Dev",
    GIT_AUTHOR_EMAIL: "dev@example.com",
    GIT_COMMITTER_NAME: "Dev",
    GIT_COMMITTER_EMAIL: "dev@example.com",
    ...extra,
  };
}

/** Runs `cmd` and answers its exit code and output (never rejects: tests assert on the result). */
export function runCli(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** git over HTTP: no credential helper (credentials come in the URL), `main` for new repositories. */
export const gitHttp = (home: string, cwd: string, ...args: string[]) =>
  runCli("git", ["-c", "credential.helper=", "-c", "init.defaultBranch=main", ...args], cwd, gitEnv(home));

import { runProcess } from "./process.ts";
import type { GitInfo } from "./protocol.ts";
import { StageFailure, type TraceWriter } from "./stage.ts";

/** What GitLab's refspecs default to for servers that send none. */
const DEFAULT_REFSPECS = ["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"];

/** The repository URL without credentials, and the credentials it carried. */
export function splitRepoUrl(repoUrl: string): { url: string; password: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(repoUrl);
  } catch {
    return { url: repoUrl, password: null };
  }
  if (!parsed.username && !parsed.password) return { url: repoUrl, password: null };
  const password = parsed.password ? decodeURIComponent(parsed.password) : null;
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.toString(), password };
}

/**
 * Fetches the job's commit into `dir` (a fresh directory): init, fetch of the job's refspecs
 * (shallow when `depth` > 0), forced checkout of the exact sha.
 *
 * `origin` is stored without credentials; for the fetch, git is told through its environment
 * (GIT_CONFIG_*, invisible to other users and not written to .git/config) to rewrite that URL
 * into the credentialed one.
 */
export async function fetchSources(git: GitInfo, o: { dir: string; env: Record<string, string>; trace: TraceWriter; signal?: AbortSignal }): Promise<void> {
  const { url } = splitRepoUrl(git.repo_url);
  const gitEnv: Record<string, string> = { ...o.env, GIT_TERMINAL_PROMPT: "0" };
  if (url !== git.repo_url) {
    Object.assign(gitEnv, {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: `url.${git.repo_url}.insteadOf`,
      GIT_CONFIG_VALUE_0: url,
    });
  }
  const run = async (args: string[]) => {
    const { exitCode, aborted } = await runProcess("git", args, {
      cwd: o.dir,
      env: gitEnv,
      onOutput: (text) => o.trace.write(text),
      signal: o.signal,
    });
    if (aborted) throw new StageFailure(`git ${args[0]} interrupted`);
    if (exitCode !== 0) throw new StageFailure(`git ${args[0]} failed: exit code ${exitCode}`);
  };

  const depth = git.depth ?? 0;
  o.trace.line(depth > 0 ? `Fetching changes with git depth set to ${depth}...` : "Fetching changes...");
  await run(["init", "--quiet", "."]);
  o.trace.line(`Initialized empty Git repository in ${o.dir}/.git/`);
  o.trace.line("Created fresh repository.");
  await run(["remote", "add", "origin", url]);
  const refspecs = git.refspecs?.length ? git.refspecs : DEFAULT_REFSPECS;
  await run(["fetch", "origin", "--prune", ...refspecs, ...(depth > 0 ? [`--depth=${depth}`] : [])]);
  o.trace.line(`Checking out ${git.sha.slice(0, 8)} as detached HEAD (ref is ${git.ref})...`);
  await run(["-c", "advice.detachedHead=false", "checkout", "-f", "-q", git.sha]);
  o.trace.line("Skipping Git submodules setup");
}

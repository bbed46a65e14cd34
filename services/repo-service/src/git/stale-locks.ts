import { readdir, readFile, readlink, rm, stat } from "node:fs/promises";
import path from "node:path";

/**
 * git guards every file it rewrites with `<file>.lock` (refs, packed-refs, HEAD, config, …) and
 * refuses to go on while one exists ("Unable to create '….lock': File exists"). A git process
 * killed together with repo-service (kill -9, OOM) leaves its lock behind, and every later write
 * to that branch, or every ref deletion once it is packed-refs.lock, fails for good.
 *
 * Removes the locks under `storageRoot` that existed before `startedAt` (the start of this
 * repo-service; a lock made by this process's own git is newer) and that no running process can
 * own: none has the repository in its arguments (`--git-dir <repo>`, `receive-pack <repo>`) or
 * its working directory inside it. repo-service is the only writer of its storage (one writer
 * per volume), so nothing else may hold them. Returns the removed paths.
 */
export async function removeStaleLocks(storageRoot: string, startedAt: number): Promise<string[]> {
  const candidates: { repo: string; lock: string }[] = [];
  const repos = await findRepositories(storageRoot);
  // Start-up waits for this: look at many repositories at a time.
  for (let i = 0; i < repos.length; i += 64) {
    await Promise.all(
      repos.slice(i, i + 64).map(async (repo) => {
        for (const lock of await findLocks(repo)) {
          const modified = (await stat(lock).catch(() => null))?.mtimeMs;
          if (modified !== undefined && modified < startedAt) candidates.push({ repo, lock });
        }
      }),
    );
  }
  if (!candidates.length) return [];
  const processes = await runningProcesses();
  const busy = (repo: string) =>
    processes.some((p) => p.args.some((a) => a === repo || a.startsWith(repo + path.sep)) || p.cwd === repo || p.cwd?.startsWith(repo + path.sep));
  const removed: string[] = [];
  for (const { repo, lock } of candidates) {
    if (busy(repo)) continue;
    await rm(lock, { force: true });
    removed.push(lock);
  }
  return removed;
}

async function entries(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw err;
  }
}

/** Bare repositories (`*.git` directories) anywhere below `root`, e.g. @hashed/ab/cd/<hash>.git. */
async function findRepositories(root: string): Promise<string[]> {
  const found = await Promise.all(
    (await entries(root))
      .filter((e) => e.isDirectory())
      .map((e) => (e.name.endsWith(".git") ? [path.join(root, e.name)] : findRepositories(path.join(root, e.name)))),
  );
  return found.flat();
}

/** `*.lock` files in a repository, skipping the loose-object fan-out (objects/00 … objects/ff), which holds none. */
async function findLocks(dir: string, rel = ""): Promise<string[]> {
  const found: string[] = [];
  for (const e of await entries(dir)) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (rel === "objects" && /^[0-9a-f]{2}$/.test(e.name)) continue;
      found.push(...(await findLocks(full, rel ? `${rel}/${e.name}` : e.name)));
    } else if (e.isFile() && e.name.endsWith(".lock")) {
      found.push(full);
    }
  }
  return found;
}

/** Arguments and working directory of every process we may look at (Linux /proc; none elsewhere). */
async function runningProcesses(): Promise<{ args: string[]; cwd?: string }[]> {
  const pids = (await entries("/proc")).filter((e) => /^\d+$/.test(e.name)).map((e) => e.name);
  const found = await Promise.all(
    pids.map(async (pid) => {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
      return { args: cmdline.split("\0").filter(Boolean), cwd };
    }),
  );
  return found.filter((p) => p.args.length || p.cwd);
}

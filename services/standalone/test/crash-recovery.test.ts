// The embedded distribution as `pnpm start` runs it — src/main.ts in its own process, with its
// embedded PostgreSQL under QUARRY_DATA_DIR — killed with SIGKILL in the middle of writes and
// started again, plainly, on the same data directory.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT_TOKEN = "glpat-crash-recovery-root-token-01";
const mainScript = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface Quarry {
  child: ChildProcess;
  url: string;
}

const running: ChildProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-crash-"));
// As root, the embedded PostgreSQL runs as user `postgres`, which must be able to enter it.
fs.chmodSync(dataDir, 0o755);
afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) await stop(child, "SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `node src/main.ts` with nothing but the data directory: embedded PostgreSQL, in-process bus. */
function startQuarry(): Promise<Quarry> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(DATABASE_URL|NATS_URL|MINIO_.*|QUARRY_.*|PORT|HOST|LOG_LEVEL)$/.test(k)) env[k] = v;
  }
  Object.assign(env, { QUARRY_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", QUARRY_ROOT_TOKEN: ROOT_TOKEN, QUARRY_RUNNER: "0", LOG_LEVEL: "warn" });
  const child = spawn(process.execPath, ["--import", "tsx", mainScript], { cwd: packageDir, env, stdio: ["ignore", "pipe", "pipe"] });
  running.push(child);
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const started = /Quarry is running: (\S+)\/api\/v4/.exec(output);
      // The gateway listens on 127.0.0.1; "localhost" might resolve to ::1 first.
      if (started) resolve({ child, url: started[1]!.replace("//localhost:", "//127.0.0.1:") });
    });
    child.once("exit", (code, signal) => reject(new Error(`quarry exited (${code ?? signal}) before it was up:\n${output}`)));
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await exited;
}

function api(q: Quarry, p: string, json?: unknown): Promise<Response> {
  return fetch(`${q.url}/api/v4${p}`, {
    method: json === undefined ? "GET" : "POST",
    headers: { "PRIVATE-TOKEN": ROOT_TOKEN, ...(json === undefined ? {} : { "Content-Type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

interface AcknowledgedProject {
  id: number;
  path: string;
}
interface AcknowledgedCommit {
  projectId: number;
  sha: string;
  file: string;
  content: string;
}

/**
 * Writers that each create projects and commit files into them until `kill9()`, keeping every
 * write the server acknowledged (2xx). `enough` resolves once `target` writes are acknowledged,
 * `done` when every writer has stopped.
 */
function writeUntilKilled(q: Quarry, writers: number, target: number) {
  let killed = false;
  const projects: AcknowledgedProject[] = [];
  const commits: AcknowledgedCommit[] = [];
  let reachEnough!: () => void;
  const enough = new Promise<void>((r) => (reachEnough = r));
  const acknowledged = () => {
    if (projects.length + commits.length >= target) reachEnough();
  };
  const writer = async (w: number) => {
    const mine: number[] = [];
    for (let i = 0; ; i++) {
      try {
        if (i % 6 === 0) {
          const res = await api(q, "/projects", { name: `Writer ${w} project ${i}`, path: `w${w}-p${i}`, initialize_with_readme: true });
          if (res.status !== 201) throw new Error(`project creation answered ${res.status}: ${await res.text()}`);
          const project = (await res.json()) as { id: number; path_with_namespace: string };
          projects.push({ id: project.id, path: project.path_with_namespace });
          mine.push(project.id);
        } else {
          const projectId = mine[i % mine.length]!;
          const file = `writer-${w}/file-${i}.txt`;
          const content = `written by writer ${w} in round ${i}\n`.repeat(1 + (i % 7));
          const res = await api(q, `/projects/${projectId}/repository/commits`, {
            branch: "main",
            commit_message: `Round ${i} of writer ${w}`,
            actions: [{ action: "create", file_path: file, content }],
          });
          if (res.status !== 201) throw new Error(`commit answered ${res.status}: ${await res.text()}`);
          commits.push({ projectId, sha: ((await res.json()) as { id: string }).id, file, content });
        }
        acknowledged();
      } catch (err) {
        // Once the server is killed every request fails to connect (or is cut off): stop there.
        // Before that, any failure is a real one.
        if (!killed) throw err;
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  const kill9 = () => {
    killed = true;
    return stop(q.child, "SIGKILL");
  };
  return { projects, commits, enough: Promise.race([enough, done]), done, kill9 };
}

function repositories(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(root, e.name);
    if (!e.isDirectory()) return [];
    return e.name.endsWith(".git") ? [full] : repositories(full);
  });
}

describe("kill -9 during writes", () => {
  it("restarts plainly on the same data directory with every acknowledged write present", { timeout: 300_000 }, async () => {
    const first = await startQuarry();
    const writes = writeUntilKilled(first, 4, 40);
    await writes.enough;
    await writes.kill9(); // requests are in flight now
    await writes.done;
    expect(writes.projects.length).toBeGreaterThan(0);
    expect(writes.commits.length).toBeGreaterThan(0);

    const restartedAt = performance.now();
    const second = await startQuarry();
    const restartMs = performance.now() - restartedAt;
    // Reported, not asserted (no wall-clock thresholds in tests).
    console.info(
      `restart after kill -9 took ${Math.round(restartMs)} ms (node --import tsx src/main.ts); ` +
        `${writes.projects.length} projects and ${writes.commits.length} commits were acknowledged`,
    );

    for (const p of writes.projects) {
      const res = await api(second, `/projects/${p.id}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { path_with_namespace: string }).path_with_namespace).toBe(p.path);
    }
    for (const c of writes.commits) {
      const file = await api(second, `/projects/${c.projectId}/repository/files/${encodeURIComponent(c.file)}/raw?ref=main`);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(c.content);
      expect((await api(second, `/projects/${c.projectId}/repository/commits/${c.sha}`)).status).toBe(200);
    }
    const repos = repositories(path.join(dataDir, "repositories"));
    expect(repos.length).toBeGreaterThanOrEqual(writes.projects.length);
    for (const repo of repos) {
      // Throws (with git's output) unless the repository is consistent.
      execFileSync("git", ["--git-dir", repo, "fsck", "--no-dangling", "--no-progress"], { stdio: "pipe" });
    }
    // Every project still takes writes: nothing the killed process held (git locks) is in the way.
    for (const p of writes.projects) {
      const res = await api(second, `/projects/${p.id}/repository/commits`, {
        branch: "main",
        commit_message: "After the restart",
        actions: [{ action: "create", file_path: "after-restart.txt", content: "still writable\n" }],
      });
      expect(res.status).toBe(201);
    }

    // A graceful stop ends the process and its PostgreSQL cleanly.
    await stop(second.child, "SIGTERM");
    expect(second.child.exitCode).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
  });
});

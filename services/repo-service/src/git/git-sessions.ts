// Long-lived git processes for the git work a write still needs, so that a write forks nothing:
// forking this (large) process for every git command costs milliseconds of blocked event loop
// each, growing with the process's memory. `git update-ref --stdin` runs each compare-and-swap as
// a transaction; `git diff-tree --stdin` counts a commit's lines. One process per repository and
// command answers one request at a time (requests queue); a process that exits (update-ref does
// when a compare-and-swap fails) is dropped with its request's error, and the next request starts
// a new one. Idle processes are closed.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { gitEnvironment, GitError } from "./git.ts";
import { refsChanged } from "./ref-writes.ts";

/** One `git <args>` process in a repository, fed request by request. */
class GitSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private out: Buffer[] = [];
  private err: Buffer[] = [];
  private waiting: { complete(out: Buffer): boolean; resolve(out: Buffer): void; reject(err: Error): void } | null = null;
  private exited: GitError | null = null;
  idleSince = Date.now();

  constructor(
    gitDir: string,
    private readonly args: readonly string[],
  ) {
    this.child = spawn("git", ["--git-dir", gitDir, ...args], { env: gitEnvironment(), stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.out.push(chunk);
      const output = Buffer.concat(this.out);
      if (this.waiting?.complete(output)) {
        const { resolve } = this.waiting;
        this.waiting = null;
        this.out = [];
        this.err = [];
        this.idleSince = Date.now();
        resolve(output);
      }
    });
    this.child.stderr.on("data", (chunk: Buffer) => this.err.push(chunk));
    this.child.stdin.on("error", () => {}); // the exit code tells the story
    this.child.on("error", (err) => this.fail(new GitError(this.args, null, err.message)));
    this.child.on("close", (code) => this.fail(new GitError(this.args, code, Buffer.concat(this.err).toString("utf8"))));
  }

  get alive(): boolean {
    return this.exited === null;
  }

  /**
   * Writes `input` and resolves with the output once `complete` accepts it. A request that takes
   * longer than `timeoutMs` ends the process (and fails with its exit).
   */
  request(input: string, complete: (out: Buffer) => boolean, timeoutMs: number): Promise<Buffer> {
    if (this.exited) return Promise.reject(this.exited);
    const timer = setTimeout(() => this.child.kill(), timeoutMs);
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting = { complete, resolve, reject };
      this.child.stdin.write(input);
    }).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.child.stdin.end();
    if (this.child.exitCode === null) this.child.kill();
  }

  private fail(err: GitError): void {
    if (this.exited) return;
    this.exited = err;
    this.waiting?.reject(err);
    this.waiting = null;
    this.close();
  }
}

export interface GitSessionPoolOptions {
  /** Most processes alive at once; beyond it the longest idle one is closed. */
  maxProcesses?: number;
  /** A process idle this long is closed. */
  idleMs?: number;
  /** A request taking longer ends its process. */
  timeoutMs?: number;
}

/** The long-lived git processes of all repositories (see the file comment). */
export class GitSessionPool {
  private readonly sessions = new Map<string, GitSession>();
  /** Per repository and command: the end of its request queue. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly maxProcesses: number;
  private readonly idleMs: number;
  private readonly timeoutMs: number;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(o: GitSessionPoolOptions = {}) {
    this.maxProcesses = o.maxProcesses ?? 32;
    this.idleMs = o.idleMs ?? 30_000;
    this.timeoutMs = o.timeoutMs ?? 60_000;
    this.timer = setInterval(() => this.evictIdle(), Math.max(50, Math.min(this.idleMs, 5_000)));
    this.timer.unref();
  }

  /**
   * Runs one compare-and-swap transaction (`update <ref> <new> <old>`, or `delete <ref> <old>`
   * when `newSha` is all zeros) with `git update-ref --stdin`. Rejects with git's GitError when
   * the ref is not at `oldSha` (or is locked); the ref is then unchanged.
   */
  updateRef(gitDir: string, ref: string, newSha: string, oldSha: string): Promise<void> {
    const command = /^0+$/.test(newSha) ? `delete ${ref} ${oldSha}` : `update ${ref} ${newSha} ${oldSha}`;
    return this.run(gitDir, ["update-ref", "--stdin"], `start\n${command}\nprepare\ncommit\n`, (out) => out.toString().endsWith("commit: ok\n"))
      .then(() => {})
      .finally(() => refsChanged(gitDir)); // committed or not, cached refs are read anew
  }

  /**
   * `git diff-tree --stdin <args>` for one input line (e.g. "<commit> <parent>"): its output.
   * A line that names no object is echoed back at once, which marks where the answer ends.
   */
  diffTree(gitDir: string, args: readonly string[], line: string): Promise<string> {
    const end = `quarry-end-${randomBytes(8).toString("hex")}\n`;
    return this.run(gitDir, ["diff-tree", "--stdin", ...args], `${line}\n${end}`, (out) => out.toString("latin1").endsWith(end)).then((out) => {
      const text = out.toString("utf8");
      return text.slice(0, text.length - end.length);
    });
  }

  /** Closes the processes of one repository (it is being deleted or moved); its cached refs go too. */
  forget(gitDir: string): void {
    refsChanged(gitDir);
    for (const [key, session] of this.sessions) {
      if (key.startsWith(`${gitDir}\0`)) {
        session.close();
        this.sessions.delete(key);
      }
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  private run(gitDir: string, args: readonly string[], input: string, complete: (out: Buffer) => boolean): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error("git session pool is closed"));
    const key = `${gitDir}\0${args.join(" ")}`;
    const result = (this.queues.get(key) ?? Promise.resolve()).then(() => this.session(key, gitDir, args).request(input, complete, this.timeoutMs));
    const tail = result.catch(() => {});
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return result;
  }

  private session(key: string, gitDir: string, args: readonly string[]): GitSession {
    let session = this.sessions.get(key);
    if (session?.alive) return session;
    this.sessions.delete(key);
    if (this.sessions.size >= this.maxProcesses) this.evictOne();
    session = new GitSession(gitDir, args);
    this.sessions.set(key, session);
    return session;
  }

  private evictOne(): void {
    let victim: [string, GitSession] | null = null;
    for (const [key, s] of this.sessions) if (!this.queues.has(key) && (!victim || s.idleSince < victim[1].idleSince)) victim = [key, s];
    if (!victim) return;
    victim[1].close();
    this.sessions.delete(victim[0]);
  }

  private evictIdle(): void {
    const now = Date.now();
    for (const [key, s] of this.sessions) {
      if (!s.alive || (!this.queues.has(key) && now - s.idleSince >= this.idleMs)) {
        s.close();
        this.sessions.delete(key);
      }
    }
  }
}

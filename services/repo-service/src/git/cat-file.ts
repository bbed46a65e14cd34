// Long-lived `git cat-file --batch-command` processes, pooled per repository, so that object reads
// on the hot path (raw files, file JSON, trees, commit walks) cost a pipe round trip instead of a
// process spawn. Modelled on Gitaly's catfile cache: bounded, idle processes are evicted, and a
// process that misbehaves is killed and never reused.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { gitEnvironment } from "./git.ts";

export type ObjectType = "blob" | "tree" | "commit" | "tag";

/** What `info` prints for an object. */
export interface ObjectInfo {
  oid: string;
  type: ObjectType;
  size: number;
}

/** An object with its content. */
export interface GitObject extends ObjectInfo {
  data: Buffer;
}

interface Pending {
  /** Whether the reply carries content after the header line. */
  contents: boolean;
  resolve(value: GitObject | ObjectInfo | null): void;
  reject(err: Error): void;
}

/**
 * One `git cat-file --batch-command` process. Requests are written at once and answered in order
 * (git replies in request order), so many callers can share it without waiting for each other.
 */
export class CatFileProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private failed: Error | null = null;
  /** Commands not yet written (flush() writes them together). */
  private outbox = "";
  private flushScheduled = false;
  /** When the process last had nothing to do (for idle eviction). */
  idleSince = Date.now();

  constructor(readonly gitDir: string) {
    this.child = spawn("git", ["--git-dir", gitDir, "cat-file", "--batch-command"], {
      env: gitEnvironment(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.resume();
    this.child.stdin.on("error", (err) => this.fail(err));
    this.child.on("error", (err) => this.fail(err));
    this.child.on("close", (code) => this.fail(new Error(`git cat-file exited (${code ?? "signal"})`)));
  }

  /** Whether the process can take requests. */
  get alive(): boolean {
    return this.failed === null;
  }

  /** Number of requests waiting for their reply. */
  get pending(): number {
    return this.queue.length;
  }

  /** Type and size of `rev` (an object id or `<oid>:<path>`), or null when it does not exist. */
  info(rev: string): Promise<ObjectInfo | null> {
    return this.request("info", rev, false) as Promise<ObjectInfo | null>;
  }

  /** The object `rev` names with its content, or null when it does not exist. */
  read(rev: string): Promise<GitObject | null> {
    return this.request("contents", rev, true) as Promise<GitObject | null>;
  }

  close(): void {
    this.fail(new Error("git cat-file closed"));
  }

  private request(command: string, rev: string, contents: boolean): Promise<GitObject | ObjectInfo | null> {
    // A newline would end the command early and desynchronise every later reply; a path starting
    // "./" or "../" after the colon is relative to a work tree, and without one git dies (taking
    // every pending request with it).
    if (/[\n\0]/.test(rev) || /:\.\.?\//.test(rev)) return Promise.resolve(null);
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.queue.push({ contents, resolve, reject });
      this.outbox += `${command} ${rev}\n`;
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Writes every command asked for during this turn of the event loop in one write: a pipe write
   * is a system call, and under load one per request cost a quarter of repo-service's CPU (bench
   * profiles); the replies still come back in request order.
   */
  private flush(): void {
    this.flushScheduled = false;
    const out = this.outbox;
    this.outbox = "";
    if (out && !this.failed) this.child.stdin.write(out);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const head = this.queue[0];
      if (!head) {
        if (this.buffer.length) this.fail(new Error("git cat-file sent output nobody asked for"));
        return;
      }
      const eol = this.buffer.indexOf(0x0a);
      if (eol === -1) return;
      const line = this.buffer.subarray(0, eol).toString("utf8");
      // "<oid> <type> <size>", or "<rev> missing" / "<rev> ambiguous".
      const m = /^([0-9a-f]{40,64}) (blob|tree|commit|tag) (\d+)$/.exec(line);
      if (!m) {
        if (!/ (missing|ambiguous)$/.test(line)) {
          this.fail(new Error(`unexpected git cat-file reply: ${line}`));
          return;
        }
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift();
        head.resolve(null);
        continue;
      }
      const info: ObjectInfo = { oid: m[1]!, type: m[2] as ObjectType, size: Number(m[3]) };
      if (!head.contents) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift();
        head.resolve(info);
        continue;
      }
      // Content follows the header, then one newline.
      const end = eol + 1 + info.size;
      if (this.buffer.length < end + 1) return;
      const data = Buffer.from(this.buffer.subarray(eol + 1, end));
      this.buffer = this.buffer.subarray(end + 1);
      this.queue.shift();
      head.resolve({ ...info, data });
    }
    // unreachable
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = err;
    for (const p of this.queue.splice(0)) p.reject(err);
    this.child.stdin.end();
    if (this.child.exitCode === null) this.child.kill();
  }

  /** Marks the process idle when nothing is waiting (called by the pool after each request). */
  touch(): void {
    if (!this.queue.length) this.idleSince = Date.now();
  }
}

export interface CatFilePoolOptions {
  /**
   * Most processes alive at once across all repositories. 0 turns pooling off: every read
   * starts and ends its own process (the one-spawn-per-read baseline the benchmark compares with).
   */
  maxProcesses?: number;
  /** Most processes per repository; requests beyond share them (replies are pipelined). */
  maxPerRepository?: number;
  /** A process idle this long is closed. */
  idleMs?: number;
}

/**
 * A bounded pool of CatFileProcess per repository. `withObjects(gitDir, fn)` lends the least busy
 * process of that repository (starting one while under the per-repository bound); when the pool
 * is full the longest-idle process elsewhere is closed to make room. Idle processes are closed
 * after `idleMs`.
 */
export class CatFilePool {
  private readonly byRepo = new Map<string, CatFileProcess[]>();
  private readonly maxProcesses: number;
  private readonly maxPerRepository: number;
  private readonly idleMs: number;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(o: CatFilePoolOptions = {}) {
    this.maxProcesses = o.maxProcesses ?? 64;
    this.maxPerRepository = o.maxPerRepository ?? 4;
    this.idleMs = o.idleMs ?? 30_000;
    this.timer = setInterval(() => this.evictIdle(), Math.max(50, Math.min(this.idleMs, 5_000)));
    this.timer.unref();
  }

  /** Number of live processes (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const list of this.byRepo.values()) n += list.length;
    return n;
  }

  /** Live processes serving a read now, and the most the pool keeps (metrics). */
  usage(): { inUse: number; size: number; max: number } {
    let inUse = 0;
    let size = 0;
    for (const list of this.byRepo.values()) {
      size += list.length;
      for (const p of list) if (p.pending > 0) inUse++;
    }
    return { inUse, size, max: this.maxProcesses };
  }

  /** Reads one object (null when missing). */
  read(gitDir: string, rev: string): Promise<GitObject | null> {
    return this.use(gitDir, (p) => p.read(rev));
  }

  /** Type and size of one object (null when missing). */
  info(gitDir: string, rev: string): Promise<ObjectInfo | null> {
    return this.use(gitDir, (p) => p.info(rev));
  }

  /** Runs `fn` with a process of `gitDir`; a process that failed during `fn` is dropped. */
  async use<T>(gitDir: string, fn: (p: CatFileProcess) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error("cat-file pool is closed");
    if (this.maxProcesses === 0) {
      const once = new CatFileProcess(gitDir);
      try {
        return await fn(once);
      } finally {
        once.close();
      }
    }
    const p = this.acquire(gitDir);
    try {
      return await fn(p);
    } finally {
      if (!p.alive) this.remove(p);
      else p.touch();
    }
  }

  /** Closes every process of one repository (it was deleted or rewritten). */
  forget(gitDir: string): void {
    for (const p of this.byRepo.get(gitDir) ?? []) p.close();
    this.byRepo.delete(gitDir);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const list of this.byRepo.values()) for (const p of list) p.close();
    this.byRepo.clear();
  }

  private acquire(gitDir: string): CatFileProcess {
    const list = (this.byRepo.get(gitDir) ?? []).filter((p) => p.alive);
    this.byRepo.set(gitDir, list);
    const idle = list.find((p) => p.pending === 0);
    if (idle) return idle;
    if (list.length < this.maxPerRepository) {
      if (this.size >= this.maxProcesses) this.evictOne(gitDir);
      if (this.size < this.maxProcesses || list.length === 0) {
        const p = new CatFileProcess(gitDir);
        list.push(p);
        return p;
      }
    }
    return list.reduce((a, b) => (b.pending < a.pending ? b : a));
  }

  /** Closes the longest-idle process of another repository. */
  private evictOne(except: string): void {
    let victim: CatFileProcess | null = null;
    for (const [dir, list] of this.byRepo) {
      if (dir === except) continue;
      for (const p of list) if (p.pending === 0 && (!victim || p.idleSince < victim.idleSince)) victim = p;
    }
    if (victim) {
      victim.close();
      this.remove(victim);
    }
  }

  private evictIdle(): void {
    const now = Date.now();
    for (const list of this.byRepo.values()) {
      for (const p of [...list])
        if (!p.alive || (p.pending === 0 && now - p.idleSince >= this.idleMs)) {
          p.close();
          this.remove(p);
        }
    }
  }

  private remove(p: CatFileProcess): void {
    const list = this.byRepo.get(p.gitDir);
    if (!list) return;
    const i = list.indexOf(p);
    if (i !== -1) list.splice(i, 1);
    if (!list.length) this.byRepo.delete(p.gitDir);
  }
}

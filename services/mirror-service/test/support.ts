// Shared set-up for mirror-service tests: a real repo-service (own database, temp storage) that
// does the pushes, mirror-service on its own database, an in-process bus, and helpers to write
// commits into the project's repository with plain git.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { mirrorV1, repoV1, type MirrorServiceDefinition, type RepoServiceDefinition } from "@quarry/proto";
import { startRepoService, type RunningRepoService } from "@quarry/repo-service";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { startMirrorService, type MirrorServiceOptions, type RunningMirrorService } from "../src/server.ts";

export const KEY = "mirror-test-key-".padEnd(40, "x");

export interface MirrorTestContext {
  mirrorDb: TestDatabase;
  repoSvc: RunningRepoService;
  repo: PromiseClient<RepoServiceDefinition>;
  bus: InProcessBus;
  storage: string;
  /** Starts a mirror-service on the shared database (tests may run two, or restart one). */
  startMirror(o?: Partial<MirrorServiceOptions>): Promise<{ svc: RunningMirrorService; client: PromiseClient<MirrorServiceDefinition> }>;
  /** Stops every mirror-service started so far (between tests: they share the bus's durables). */
  stopMirrors(): Promise<void>;
  close(): Promise<void>;
}

export async function setUp(prefix: string): Promise<MirrorTestContext> {
  const log = silentLogger();
  const [mirrorDb, repoDb] = await Promise.all([createTestDatabase(`${prefix}_mirror`), createTestDatabase(`${prefix}_repo`)]);
  const storage = mkdtempSync(path.join(os.tmpdir(), "quarry-mirror-test-"));
  const bus = new InProcessBus({ log });
  const repoSvc = await startRepoService({ databaseUrl: repoDb.url, grpcAddress: "127.0.0.1:0", storageRoot: storage, bus, log });
  const repo = createClient(repoV1.RepoService, repoSvc.address, { deadlineMs: 10_000 });
  const started: { svc: RunningMirrorService; client: PromiseClient<MirrorServiceDefinition> }[] = [];
  const stopMirrors = async () => {
    for (const s of started.splice(0)) {
      s.client.close();
      await s.svc.stop().catch(() => {});
    }
  };
  return {
    stopMirrors,
    mirrorDb,
    repoSvc,
    repo,
    bus,
    storage,
    async startMirror(o = {}) {
      const svc = await startMirrorService({
        databaseUrl: mirrorDb.url,
        grpcAddress: "127.0.0.1:0",
        repoServiceAddress: repoSvc.address,
        deadlineMs: 10_000,
        encryptionKey: KEY,
        allowLocalRequests: true,
        bus,
        log,
        ...o,
      });
      const client = createClient(mirrorV1.MirrorService, svc.address, { deadlineMs: 20_000 });
      const s = { svc, client };
      started.push(s);
      return s;
    },
    async close() {
      await stopMirrors();
      repo.close();
      await repoSvc.stop();
      await bus.close();
      await mirrorDb.drop();
      await repoDb.drop();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

let nextProject = 1000;

/** A project repository in repo-service with a README commit on main; returns its id, disk path and folder. */
export async function newProject(t: MirrorTestContext): Promise<{ projectId: number; diskPath: string; dir: string }> {
  const projectId = nextProject++;
  const h = createHash("sha256").update(`mirror-${projectId}`).digest("hex");
  const diskPath = `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`;
  await t.repo.CreateRepository({
    projectId,
    diskPath,
    defaultBranch: "main",
    initializeWithReadme: true,
    author: { name: "Ada", email: "ada@example.com" },
    projectName: "Mirrored",
  });
  return { projectId, diskPath, dir: path.join(t.storage, diskPath) };
}

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8" }).trim();
}

/** A new commit on top of `ref` (without moving it). */
export function commitOn(dir: string, ref: string, message: string): string {
  const tree = gitIn(dir, "rev-parse", `${ref}^{tree}`);
  return execFileSync("git", ["--git-dir", dir, "commit-tree", tree, "-p", ref, "-m", message], {
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com" },
  }).trim();
}

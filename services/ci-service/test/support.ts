// Shared set-up for ci-service handler tests: a real PostgreSQL database with the migrations
// applied, a local-disk object store in a temp directory, and (on request) a real repo-service
// over git repositories made with the git CLI.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBus } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { silentLogger } from "@quarry/logger";
import { LocalDiskObjectStore } from "@quarry/object-store";
import { startRepoService } from "@quarry/repo-service";
import { createTestDatabase } from "@quarry/testing";
import { createSecretBox } from "@quarry/secret-box";
import { repositoryReader } from "../src/clients.ts";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "../src/generated/prisma/client.ts";
import { DEFAULT_CI_SETTINGS, type CiDeps, type ProjectFacts, type RepositoryReader } from "../src/deps.ts";
import { migrations } from "../src/generated/migrations.ts";
import { JobQueueSignal } from "../src/pipelines/queue-signal.ts";
import { type CiServiceOptions, startCiService } from "../src/server.ts";

export interface TestContext {
  deps: CiDeps;
  /** Events ci-service published (subject and payload), in order. */
  published: { subject: string; data: unknown }[];
  /** Projects the test registered with addProject (identity-service's answer in production). */
  projects: Map<number, ProjectFacts>;
  /** The projects below each group, subgroups included (identity-service's answer in production); tests fill it. */
  groupProjects: Map<number, number[]>;
  /** Creates a project whose repository holds `files` on `branch` (needs `{ repo: true }`); returns the head sha. */
  addProject(id: number, files: Record<string, string>, branch?: string): Promise<{ project: ProjectFacts; sha: string }>;
  /** Commits `files` on top of `branch` of a project made by addProject; returns the new sha. */
  commit(id: number, files: Record<string, string>, branch?: string): string;
  /** Points refs/merge-requests/<iid>/head of a project made by addProject at `sha`. */
  mergeRequestRef(id: number, iid: number, sha: string): void;
  /** Tags `sha` in a project made by addProject. */
  tag(id: number, name: string, sha: string): void;
  close(): Promise<void>;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" },
  }).trim();

export async function setUp(prefix: string, options: { repo?: boolean } = {}): Promise<TestContext> {
  const db = await createTestDatabase(prefix);
  await applyMigrations(db.url, migrations, { log: () => {} });
  const root = mkdtempSync(path.join(os.tmpdir(), "quarry-ci-test-"));
  const prisma = createPrisma(PrismaClient, db.url, 4);
  const stops: (() => Promise<void>)[] = [];
  const projects = new Map<number, ProjectFacts>();
  const published: { subject: string; data: unknown }[] = [];
  const groupProjects = new Map<number, number[]>();
  let repositories: RepositoryReader = {
    readFile: () => Promise.reject(new Error("setUp without { repo: true }")),
    findCommit: () => Promise.reject(new Error("setUp without { repo: true }")),
  };
  const storageRoot = path.join(root, "repositories");
  if (options.repo) {
    const repoDb = await createTestDatabase(`${prefix}_repo`);
    const bus = await createBus({ name: "ci-test", log: silentLogger() });
    const repo = await startRepoService({ databaseUrl: repoDb.url, grpcAddress: "127.0.0.1:0", storageRoot, bus, log: silentLogger() });
    const reader = repositoryReader(repo.address, 10_000);
    repositories = reader;
    stops.push(async () => {
      reader.close();
      await repo.stop();
      await bus.close();
      await repoDb.drop();
    });
  }
  const objectStore = new LocalDiskObjectStore({ root: path.join(root, "objects"), bucket: "artifacts" });
  await objectStore.ensureBucket();
  const deps: CiDeps = {
    prisma,
    objectStore,
    storageKind: "local",
    repositories,
    projects: { getProject: async (id) => projects.get(id) ?? null, groupProjectIds: async (id) => groupProjects.get(id) ?? [] },
    queue: new JobQueueSignal(),
    settings: { ...DEFAULT_CI_SETTINGS },
    secrets: createSecretBox("ci-service test encryption key, 32+ characters", "project_runners_tokens"),
    events: {
      async publish(subject, data) {
        published.push({ subject, data });
      },
    },
    log: silentLogger(),
  };
  const workTree = (id: number) => path.join(root, "work", String(id));
  const commit = (id: number, files: Record<string, string>, branch = "main") => {
    const dir = workTree(id);
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", `commit ${Object.keys(files).join(", ")}`);
    git(dir, "push", "-q", "origin", `HEAD:refs/heads/${branch}`);
    return git(dir, "rev-parse", "HEAD");
  };
  return {
    deps,
    published,
    projects,
    groupProjects,
    async addProject(id, files, branch = "main") {
      const diskPath = `@hashed/test/${prefix}-${id}.git`;
      const bare = path.join(storageRoot, diskPath);
      mkdirSync(bare, { recursive: true });
      git(bare, "init", "-q", "--bare", "-b", branch);
      mkdirSync(workTree(id), { recursive: true });
      git(workTree(id), "init", "-q", "-b", branch);
      git(workTree(id), "remote", "add", "origin", bare);
      const project: ProjectFacts = { id, pathWithNamespace: `group/project-${id}`, defaultBranch: branch, diskPath, ciConfigPath: "", visibility: "private" };
      projects.set(id, project);
      return { project, sha: commit(id, files, branch) };
    },
    commit,
    mergeRequestRef(id, iid, sha) {
      git(workTree(id), "push", "-q", "origin", `${sha}:refs/merge-requests/${iid}/head`);
    },
    tag(id, name, sha) {
      git(workTree(id), "tag", name, sha);
      git(workTree(id), "push", "-q", "origin", `refs/tags/${name}`);
    },
    async close() {
      for (const stop of stops) await stop();
      await prisma.$disconnect();
      await db.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A whole ci-service (startCiService) on `databaseUrl` for tests that create no pipeline from
 * pushes: repo- and identity-service are never called, so their addresses lead nowhere.
 */
export function startLoneCiService(o: Omit<CiServiceOptions, "grpcAddress" | "log" | "encryptionKey" | "repoServiceAddress" | "identityServiceAddress">) {
  return startCiService({
    grpcAddress: "127.0.0.1:0",
    log: silentLogger(),
    encryptionKey: "ci-service test encryption key, 32+ characters",
    repoServiceAddress: "127.0.0.1:1",
    identityServiceAddress: "127.0.0.1:1",
    ...o,
  });
}

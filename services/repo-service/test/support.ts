import { ApplicationSettingsCache } from "@quarry/application-settings";
// Shared set-up for the handler tests: a real PostgreSQL database (createTestDatabase) with the
// migrations applied, a temp storage root, and plain git to inspect what the handlers wrote.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus, OutboxRelay } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { silentLogger } from "@quarry/logger";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { expect } from "vitest";
import type { CreateRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/CreateRepositoryRequest";
import type { PushContext__Output } from "@quarry/proto/types/repo/v1/PushContext";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "../src/generated/prisma/client.ts";
import type { RepoDeps } from "../src/deps.ts";
import { RepositoryStorages } from "../src/storage/storages.ts";
import { migrations } from "../src/generated/migrations.ts";
import { CatFilePool } from "../src/git/cat-file.ts";
import { GitSessionPool } from "../src/git/git-sessions.ts";
import { mayWriteRefs, refsChanged } from "../src/git/ref-writes.ts";
import { createRepository } from "../src/rpc/create-repository.ts";

export interface TestContext {
  deps: RepoDeps;
  db: TestDatabase;
  /** Parent of the storage root, so tests can check nothing escapes the root. */
  sandbox: string;
  close(): Promise<void>;
}

export async function setUp(prefix: string): Promise<TestContext> {
  const db = await createTestDatabase(prefix);
  await applyMigrations(db.url, migrations, { log: () => {} });
  const sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-repo-test-"));
  const bus = new InProcessBus();
  const prisma = createPrisma(PrismaClient, db.url, 4);
  const log = silentLogger();
  // Not started: handlers' kick() still drains into the bus, but tests read outbox_events rows.
  const outbox = new OutboxRelay(prisma, bus, log);
  const deps: RepoDeps = {
    prisma,
    bus,
    outbox,
    log,
    storageRoot: path.join(sandbox, "repositories"),
    storages: new RepositoryStorages([{ name: "default", root: path.join(sandbox, "repositories"), weight: 100 }], prisma),
    catFile: new CatFilePool(),
    gitSessions: new GitSessionPool(),
    defaultBranchProtection: 2,
    // GitLab's defaults: these tests pin defaultBranchProtection and never change settings.
    applicationSettings: new ApplicationSettingsCache({ service: "repo-test", fetch: async () => ({ settings: {}, revision: 0 }) }),
  };
  return {
    deps,
    db,
    sandbox,
    async close() {
      await outbox.stop();
      deps.catFile.close();
      deps.gitSessions.close();
      await prisma.$disconnect();
      await bus.close();
      await db.drop();
      rmSync(sandbox, { recursive: true, force: true });
    },
  };
}

let nextProjectId = 1;

/** A fresh project id and its hashed disk path, as identity-service derives it. */
export function newProject(): { projectId: number; diskPath: string } {
  const projectId = nextProjectId++;
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  return { projectId, diskPath: `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git` };
}

export function createRequest(overrides: Partial<CreateRepositoryRequest__Output> = {}): CreateRepositoryRequest__Output {
  return {
    ...newProject(),
    defaultBranch: "main",
    initializeWithReadme: false,
    author: { name: "Ada Lovelace", email: "ada@example.com" },
    projectName: "My Project",
    projectDescription: "",
    ...overrides,
  };
}

/**
 * Runs git in a bare repository and returns trimmed stdout (throws on failure). A command that can
 * write refs is reported as repo-service's own writes are (git/ref-writes.ts): in production only
 * the service changes its repositories' refs, and tests set repositories up behind its back.
 */
export function gitIn(gitDir: string, ...args: string[]): string {
  try {
    return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trimEnd();
  } finally {
    if (mayWriteRefs(args)) refsChanged(gitDir);
  }
}

/** Whether git exits 0. */
export function gitOk(gitDir: string, ...args: string[]): boolean {
  try {
    gitIn(gitDir, ...args);
    return true;
  } catch {
    return false;
  }
}

/** A new, empty bare repository (HEAD → `defaultBranch`), as CreateRepository makes it. */
export async function repositoryWith(t: TestContext, defaultBranch = "main"): Promise<{ diskPath: string; dir: string; projectId: number }> {
  const req = createRequest({ defaultBranch });
  await createRepository(t.deps)(req);
  return { diskPath: req.diskPath, dir: path.join(t.deps.storageRoot, req.diskPath), projectId: req.projectId };
}

export interface CommitOptions {
  message?: string;
  parents?: string[];
  /** Files of the commit's tree (path → content); one file derived from the message when omitted. */
  files?: Record<string, string>;
  /** A ready tree (e.g. from makeTree) instead of `files`. */
  tree?: string;
  author?: { name: string; email: string; date: string };
  committer?: { name: string; email: string; date: string };
}

/** Writes a commit object (no ref) with plumbing and returns its sha. */
export function makeCommit(gitDir: string, o: CommitOptions = {}): string {
  const message = o.message ?? "A commit\n";
  const tree = o.tree ?? makeTree(gitDir, o.files ?? { "file.txt": message });
  return commitTree(gitDir, tree, o);
}

/** `git commit-tree` of `tree` with the message, parents and identities of `o`. */
function commitTree(gitDir: string, tree: string, o: Omit<CommitOptions, "files">): string {
  const message = o.message ?? "A commit\n";
  const author = o.author ?? { name: "Ada Lovelace", email: "ada@example.com", date: "2026-11-21T10:00:00+00:00" };
  const committer = o.committer ?? author;
  const args = ["--git-dir", gitDir, "commit-tree", "--no-gpg-sign", tree];
  for (const p of o.parents ?? []) args.push("-p", p);
  return execFileSync("git", args, {
    input: message,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: author.date,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: committer.date,
    },
  }).trim();
}

/**
 * Writes a commit whose tree holds `files` (nested paths allowed, any mode), built through a
 * temporary index, and returns its sha. Options as for makeCommit.
 */
export function makeTreeCommit(gitDir: string, files: Record<string, TreeFile>, o: Omit<CommitOptions, "files"> = {}): string {
  return commitTree(gitDir, makeTree(gitDir, files), o);
}

/**
 * Writes an annotated tag object with plumbing (tagger Grace Hopper, `date` as "<unix> <tz>",
 * the message as given), points `refs/tags/<name>` at it and returns its id.
 */
export function annotatedTag(gitDir: string, name: string, target: string, message: string, date: string): string {
  const body = `object ${target}\ntype commit\ntag ${name}\ntagger Grace Hopper <grace@example.com> ${date}\n\n${message}`;
  const sha = execFileSync("git", ["--git-dir", gitDir, "mktag"], { input: body, encoding: "utf8" }).trim();
  gitIn(gitDir, "update-ref", `refs/tags/${name}`, sha);
  return sha;
}

/** The PushContext the gateway would send for `projectId`. */
export function pushContext(projectId: number, overrides: Partial<PushContext__Output> = {}): PushContext__Output {
  return {
    projectId,
    projectName: "My Project",
    projectDescription: "",
    pathWithNamespace: "ada/my-project",
    namespaceName: "Ada Lovelace",
    visibilityLevel: 20,
    defaultBranch: "main",
    webUrl: "http://quarry.example/ada/my-project",
    httpUrl: "http://quarry.example/ada/my-project.git",
    sshUrl: "git@quarry.example:ada/my-project.git",
    ciConfigPath: "",
    userId: 1,
    userName: "Ada Lovelace",
    userUsername: "ada",
    userEmail: "ada@example.com",
    userAvatar: "",
    accessLevel: 40,
    deployKey: false,
    ...overrides,
  };
}

/** The outbox rows written for a project's repository, oldest first (payloads as stored). */
export async function outboxPayloads(t: TestContext, projectId: number): Promise<{ subject: string; payload: Record<string, unknown> }[]> {
  const rows = await t.deps.prisma.outboxEvent.findMany({ orderBy: { id: "asc" } });
  return rows.map((r) => ({ subject: r.subject, payload: r.payload as Record<string, unknown> })).filter((r) => r.payload.project_id === projectId);
}

/** The push event payload (as stored and published) for a ref change made with pushContext(projectId). */
export function expectedPushPayload(ref: string, before: string, after: string, projectId: number) {
  return {
    event_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown as string,
    object_kind: "push",
    event_name: "push",
    before,
    after,
    ref,
    ref_protected: false,
    checkout_sha: /^0+$/.test(after) ? null : after,
    message: null,
    user_id: 1,
    user_name: "Ada Lovelace",
    user_username: "ada",
    user_email: "ada@example.com",
    user_avatar: null,
    project_id: projectId,
    project: {
      id: projectId,
      name: "My Project",
      description: null,
      web_url: "http://quarry.example/ada/my-project",
      avatar_url: null,
      git_ssh_url: "git@quarry.example:ada/my-project.git",
      git_http_url: "http://quarry.example/ada/my-project.git",
      namespace: "Ada Lovelace",
      visibility_level: 20,
      path_with_namespace: "ada/my-project",
      default_branch: "main",
      ci_config_path: null,
      homepage: "http://quarry.example/ada/my-project",
      url: "git@quarry.example:ada/my-project.git",
      ssh_url: "git@quarry.example:ada/my-project.git",
      http_url: "http://quarry.example/ada/my-project.git",
    },
    commits: [],
    total_commits_count: 0,
    push_options: {},
    repository: {
      name: "My Project",
      url: "git@quarry.example:ada/my-project.git",
      description: null,
      homepage: "http://quarry.example/ada/my-project",
      git_http_url: "http://quarry.example/ada/my-project.git",
      git_ssh_url: "git@quarry.example:ada/my-project.git",
      visibility_level: 20,
    },
  };
}

/**
 * A tree entry for makeTree: content for a blob (mode 100644 unless given: "100755", "120000" for a
 * symbolic link whose content is the target), or a gitlink oid (`submodule`, or mode "160000").
 */
export type TreeFile = string | Buffer | { content: string | Buffer; mode?: string } | { submodule: string };

/**
 * Writes a tree from nested paths ("dir/sub/file.txt" → content) through a throw-away index, so
 * directories, executables, symlinks and submodules can be made without a work tree.
 */
export function makeTree(gitDir: string, files: Record<string, TreeFile>): string {
  const index = path.join(os.tmpdir(), `quarry-index-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  try {
    const lines = Object.entries(files).map(([p, f]) => {
      if (typeof f !== "string" && !Buffer.isBuffer(f) && "submodule" in f) return `160000 ${f.submodule}\t${p}\n`;
      const { content, mode = "100644" } = typeof f === "string" || Buffer.isBuffer(f) ? { content: f } : f;
      if (mode === "160000") return `160000 ${String(content)}\t${p}\n`;
      const blob = execFileSync("git", ["--git-dir", gitDir, "hash-object", "-w", "--stdin"], { input: content, encoding: "utf8" }).trim();
      return `${mode} ${blob}\t${p}\n`;
    });
    execFileSync("git", ["--git-dir", gitDir, "update-index", "--add", "--index-info"], { input: lines.join(""), env });
    return execFileSync("git", ["--git-dir", gitDir, "write-tree"], { encoding: "utf8", env }).trim();
  } finally {
    rmSync(index, { force: true });
  }
}

/**
 * Gives the context two storages, `default` (the sandbox's repositories, weight 100) and `fast`
 * (`<sandbox>/fast`, weight `fastWeight`), loaded from the table: what storage tests run on.
 */
export async function withTwoStorages(t: TestContext, fastWeight = 0): Promise<{ defaultRoot: string; fastRoot: string }> {
  const defaultRoot = t.deps.storageRoot;
  const fastRoot = path.join(t.sandbox, "fast");
  const storages = new RepositoryStorages(
    [
      { name: "default", root: defaultRoot, weight: 100 },
      { name: "fast", root: fastRoot, weight: fastWeight },
    ],
    t.deps.prisma,
  );
  await storages.load();
  t.deps.storages = storages;
  return { defaultRoot, fastRoot };
}

/** The error a handler's call was refused with (its gRPC code and GitLab body), or null when it succeeded. */
export async function failure(p: Promise<unknown>): Promise<{ code: number; body: unknown } | null> {
  return (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { code: number; body: unknown } | null;
}

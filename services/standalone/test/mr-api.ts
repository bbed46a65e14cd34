// Merge requests for end-to-end tests: a project with a feature branch, commits through the API or
// pushed with the git CLI over the stack's smart HTTP, and merge requests created as root (or as
// a given token). Other merge request tests import these.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestStack } from "./helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: tests read GitLab's JSON freely.
type Json = any;

async function expectStatus(res: Response, status: number): Promise<Json> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

export interface TestProject {
  id: number;
  path_with_namespace: string;
  default_branch: string;
}

/** A project of root with a README on `main` (unprotected, so Developers may push there too). */
export async function createProject(s: TestStack, o: { name?: string; visibility?: string } = {}): Promise<TestProject> {
  const name = o.name ?? `mr-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const project = await expectStatus(
    await s.api("/projects", { method: "POST", json: { name, visibility: o.visibility ?? "private", initialize_with_readme: true } }),
    201,
  );
  await expectStatus(await s.api(`/projects/${project.id}/protected_branches/main`, { method: "DELETE" }), 204);
  return project;
}

/** Adds a member to a project (30 = Developer). */
export async function addMember(s: TestStack, projectId: number, userId: number, accessLevel: number): Promise<void> {
  await expectStatus(await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: userId, access_level: accessLevel } }), 201);
}

/**
 * One commit through the API on `branch` (created from `startBranch` when given), writing each file;
 * the commit's JSON.
 */
export async function commitFiles(
  s: TestStack,
  projectId: number,
  branch: string,
  files: Record<string, string>,
  o: { message?: string; startBranch?: string; token?: string } = {},
): Promise<{ id: string; title: string; message: string }> {
  const tree = await expectStatus(
    await s.api(`/projects/${projectId}/repository/tree?ref=${encodeURIComponent(o.startBranch ?? branch)}&recursive=true&per_page=100`),
    200,
  );
  const existing = new Set((tree as { path: string }[]).map((t) => t.path));
  const actions = Object.entries(files).map(([filePath, content]) => ({ action: existing.has(filePath) ? "update" : "create", file_path: filePath, content }));
  const json = {
    branch,
    commit_message: o.message ?? `Change ${Object.keys(files).join(", ")}`,
    actions,
    ...(o.startBranch ? { start_branch: o.startBranch } : {}),
  };
  return expectStatus(await s.api(`/projects/${projectId}/repository/commits`, { method: "POST", json, token: o.token }), 201);
}

/** Creates a merge request (as root unless `token`); its JSON. */
export async function createMergeRequest(
  s: TestStack,
  projectId: number,
  body: { source_branch: string; target_branch?: string; title?: string } & Record<string, unknown>,
  token?: string,
): Promise<Json> {
  const json = { target_branch: "main", title: `Merge ${body.source_branch}`, ...body };
  return expectStatus(await s.api(`/projects/${projectId}/merge_requests`, { method: "POST", json, token }), 201);
}

/** A project with `feature` one commit ahead of `main` and a merge request from it; both JSONs. */
export async function projectWithMergeRequest(
  s: TestStack,
  o: { visibility?: string; mr?: Record<string, unknown> } = {},
): Promise<{ project: TestProject; mr: Json; commit: { id: string } }> {
  const project = await createProject(s, { visibility: o.visibility });
  const commit = await commitFiles(s, project.id, "feature", { "feature.txt": "one\n" }, { startBranch: "main", message: "Add feature" });
  const mr = await createMergeRequest(s, project.id, { source_branch: "feature", ...o.mr });
  return { project, mr, commit };
}

/** The git CLI against the stack, with a throwaway HOME, no credential helper and no prompts. */
export class GitClient {
  readonly home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-mr-git-"));
  private dirs = 0;

  constructor(private readonly s: TestStack) {}

  run(cwd: string, ...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        "git",
        ["-c", "credential.helper=", "-c", "init.defaultBranch=main", ...args],
        {
          cwd,
          env: {
            PATH: process.env.PATH,
            HOME: this.home,
            GIT_CONFIG_NOSYSTEM: "1",
            GIT_TERMINAL_PROMPT: "0",
            GIT_AUTHOR_NAME: "Dev",
            GIT_AUTHOR_EMAIL: "dev@example.com",
            GIT_COMMITTER_NAME: "Dev",
            GIT_COMMITTER_EMAIL: "dev@example.com",
          },
        },
        (err, stdout, stderr) => (err ? reject(new Error(`git ${args.join(" ")} failed: ${stderr}`)) : resolve(stdout.trim())),
      );
    });
  }

  /** The clone URL with root's credentials (or the given ones). */
  url(project: { path_with_namespace: string }, creds: { username: string; token: string } = { username: "root", token: this.s.rootToken }): string {
    const u = new URL(`${this.s.url}/${project.path_with_namespace}.git`);
    u.username = creds.username;
    u.password = creds.token;
    return u.toString();
  }

  /** A fresh clone of the project checked out at `branch`. */
  async clone(project: { path_with_namespace: string }, branch: string, creds?: { username: string; token: string }): Promise<string> {
    const dir = path.join(this.home, `repo${this.dirs++}`);
    await this.run(this.home, "clone", "--branch", branch, this.url(project, creds), dir);
    return dir;
  }

  /** Commits each `{file: content}` as its own commit ("Add <file>" unless a message is given) and pushes `branch`; the new head. */
  async pushCommits(dir: string, branch: string, commits: { file: string; content: string; message?: string }[]): Promise<string> {
    for (const c of commits) {
      fs.mkdirSync(path.dirname(path.join(dir, c.file)), { recursive: true });
      fs.writeFileSync(path.join(dir, c.file), c.content);
      await this.run(dir, "add", c.file);
      await this.run(dir, "commit", "-m", c.message ?? `Add ${c.file}`);
    }
    await this.run(dir, "push", "origin", `HEAD:refs/heads/${branch}`);
    return this.run(dir, "rev-parse", "HEAD");
  }

  cleanUp(): void {
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}

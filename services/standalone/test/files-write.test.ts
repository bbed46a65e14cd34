import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  projectId = (await s.gitlab().Projects.create({ name: "files", initializeWithReadme: true })).id;
  reporter = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reporter.id, access_level: 20 } });
});
afterAll(() => s?.destroy());

function gitRaw(...args: string[]): Buffer {
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
  return execFileSync("git", ["--git-dir", gitDir, ...args]);
}
const git = (...args: string[]) =>
  gitRaw(...args)
    .toString("utf8")
    .trim();

const file = (p: string, method: string, body: unknown, token?: string | null) =>
  s.api(`/projects/${projectId}/repository/files/${encodeURIComponent(p)}`, { method, json: body, token });
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

describe("repository files writes", () => {
  it("creates (201), updates (200) and deletes (200) with @gitbeaker/rest, one commit each", async () => {
    const api = s.gitlab();
    const head = git("rev-parse", "refs/heads/main");
    expect(await api.RepositoryFiles.create(projectId, "docs/guide.md", "main", "# Guide\n", "Add guide")).toEqual({
      file_path: "docs/guide.md",
      branch: "main",
    });
    expect(git("log", "-1", "--format=%s%n%P%n%an", "main")).toBe(`Add guide\n${head}\nAdministrator`);
    expect(await api.RepositoryFiles.edit(projectId, "docs/guide.md", "main", "# Guide v2\n", "Edit guide")).toEqual({
      file_path: "docs/guide.md",
      branch: "main",
    });
    expect(git("show", "main:docs/guide.md")).toBe("# Guide v2");
    await api.RepositoryFiles.remove(projectId, "docs/guide.md", "main", "Remove guide");
    expect(git("ls-tree", "-r", "--name-only", "main")).toBe("README.md");
    expect(git("log", "--format=%s", "-3", "main")).toBe("Remove guide\nEdit guide\nAdd guide");
  });

  it("answers with exact statuses and bodies, takes URL-encoded paths, base64 content and execute_filemode", async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const created = await file("bin/tool.bin", "POST", {
      branch: "main",
      commit_message: "Binary",
      content: bytes.toString("base64"),
      encoding: "base64",
      execute_filemode: true,
      author_name: "Grace",
      author_email: "grace@example.com",
    });
    expect(await json(created)).toEqual({ status: 201, body: { file_path: "bin/tool.bin", branch: "main" } });
    expect(Buffer.compare(gitRaw("cat-file", "blob", "main:bin/tool.bin"), bytes)).toBe(0);
    expect(git("ls-tree", "main", "bin/tool.bin")).toMatch(/^100755 blob/);
    expect(git("log", "-1", "--format=%an <%ae> / %cn", "main")).toBe("Grace <grace@example.com> / Administrator");

    const updated = await file("bin/tool.bin", "PUT", { branch: "main", commit_message: "Text now", content: "plain\n", execute_filemode: false });
    expect(await json(updated)).toEqual({ status: 200, body: { file_path: "bin/tool.bin", branch: "main" } });
    expect(git("ls-tree", "main", "bin/tool.bin")).toMatch(/^100644 blob/);

    const removed = await file("bin/tool.bin", "DELETE", { branch: "main", commit_message: "Gone" });
    expect(removed.status).toBe(200);
    expect(await removed.text()).toBe("");
    expect(git("ls-tree", "-r", "--name-only", "main")).toBe("README.md");
  });

  it("creates the branch from start_branch", async () => {
    const res = await file("new.txt", "POST", { branch: "topic", start_branch: "main", commit_message: "On topic", content: "t" });
    expect(res.status).toBe(201);
    expect(git("rev-parse", "topic~1")).toBe(git("rev-parse", "main"));
    expect(git("show", "topic:new.txt")).toBe("t");
  });

  it("refuses what GitLab refuses, with its bodies", async () => {
    const readmeCommit = git("log", "-1", "--format=%H", "main", "--", "README.md");
    expect(await json(await file("a.txt", "POST", { content: "x" }))).toEqual({ status: 400, body: { error: "branch is missing, commit_message is missing" } });
    expect(await json(await file("a.txt", "POST", { branch: "main", commit_message: "m" }))).toEqual({ status: 400, body: { error: "content is missing" } });
    expect(await json(await file("a.txt", "PUT", { branch: "", commit_message: "m", content: "x" }))).toEqual({
      status: 400,
      body: { error: "branch is empty" },
    });
    expect(await json(await file("a.txt", "POST", { branch: "main", commit_message: "m", content: "x", encoding: "hex" }))).toEqual({
      status: 400,
      body: { error: "encoding does not have a valid value" },
    });
    expect(await json(await file("../a.txt", "POST", { branch: "main", commit_message: "m", content: "x" }))).toEqual({
      status: 400,
      body: { error: "file_path should be a valid file path" },
    });
    expect(await json(await file("a/../../b", "PUT", { branch: "main", commit_message: "m", content: "x" }))).toEqual({
      status: 400,
      body: { error: "file_path should be a valid file path" },
    });
    expect(await json(await file("/etc/passwd", "DELETE", { branch: "main", commit_message: "m" }))).toEqual({
      status: 400,
      body: { error: "file_path should be a valid file path" },
    });

    const refused = async (res: Promise<Response>, message: string) => expect(await json(await res)).toEqual({ status: 400, body: { message } });
    await refused(file("README.md", "POST", { branch: "main", commit_message: "m", content: "x" }), "A file with this name already exists");
    await refused(file("missing.txt", "PUT", { branch: "main", commit_message: "m", content: "x" }), "A file with this name doesn't exist");
    await refused(file("missing.txt", "DELETE", { branch: "main", commit_message: "m" }), "A file with this name doesn't exist");
    await refused(
      file("README.md", "PUT", { branch: "main", commit_message: "m", content: git("show", "main:README.md") + "\n" }),
      "Your changes could not be committed: the commit would be empty (the content is unchanged)",
    );
    await refused(file("x.txt", "POST", { branch: "nope", commit_message: "m", content: "x" }), "You can only create or edit files when you are on a branch");

    // A stale last_commit_id: README.md changes after the caller read it.
    expect((await file("README.md", "PUT", { branch: "main", commit_message: "m", content: "changed\n", last_commit_id: readmeCommit })).status).toBe(200);
    await refused(
      file("README.md", "PUT", { branch: "main", commit_message: "m", content: "mine\n", last_commit_id: readmeCommit }),
      "You are attempting to update a file that has changed since you started editing it.",
    );
    await refused(
      file("README.md", "DELETE", { branch: "main", commit_message: "m", last_commit_id: readmeCommit }),
      "You are attempting to delete a file that has been previously updated.",
    );

    const asReporter = await json(await file("r.txt", "POST", { branch: "main", commit_message: "m", content: "x" }, reporter.token));
    expect(asReporter.status).toBe(403);
    expect((await file("r.txt", "POST", { branch: "main", commit_message: "m", content: "x" }, null)).status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let head: string;
let readRepositoryToken: string;

beforeAll(async () => {
  s = await startTestStack();
  const project = await s.gitlab().Projects.create({ name: "scoped", visibility: "private", initializeWithReadme: true });
  projectId = project.id;
  const reader = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reader.id, access_level: 20 } });
  const tok = await s.api(`/users/${reader.id}/personal_access_tokens`, { method: "POST", json: { name: "repo-only", scopes: ["read_repository"] } });
  readRepositoryToken = ((await tok.json()) as { token: string }).token;
  head = ((await (await s.api(`/projects/${projectId}/repository/branches/main`)).json()) as { commit: { id: string } }).commit.id;
  expect((await s.api(`/projects/${projectId}/repository/tags`, { method: "POST", json: { tag_name: "v1", ref: "main" } })).status).toBe(201);
});
afterAll(() => s?.destroy());

describe("a read_repository token", () => {
  it("reads files, tree, blobs, archive, compare, contributors, branches, tags and commits", async () => {
    const base = `/projects/${projectId}/repository`;
    const reads = [
      `${base}/files/README.md?ref=main`,
      `${base}/files/README.md/raw?ref=main`,
      `${base}/files/README.md/blame?ref=main`,
      `${base}/tree`,
      `${base}/archive.tar.gz`,
      `${base}/compare?from=${head}&to=main`,
      `${base}/contributors`,
      `${base}/branches`,
      `${base}/branches/main`,
      `${base}/tags`,
      `${base}/tags/v1`,
      `${base}/commits`,
      `${base}/commits/${head}`,
      `${base}/commits/${head}/diff`,
      `${base}/commits/${head}/refs`,
    ];
    const blob = ((await (await s.api(`${base}/files/README.md?ref=main`)).json()) as { blob_id: string }).blob_id;
    reads.push(`${base}/blobs/${blob}`, `${base}/blobs/${blob}/raw`);
    const statuses = await Promise.all(reads.map(async (p) => [p, (await s.api(p, { token: readRepositoryToken })).status]));
    expect(statuses).toEqual(reads.map((p) => [p, 200]));
    const head_ = await s.api(`${base}/files/README.md?ref=main`, { method: "HEAD", token: readRepositoryToken });
    expect(head_.status).toBe(200);

    // Through a client library too.
    const file = await s.gitlab(readRepositoryToken).RepositoryFiles.show(projectId, "README.md", "main");
    expect(file.file_path).toBe("README.md");
  });

  it("cannot write to the repository, nor read other resources", async () => {
    const write = await s.api(`/projects/${projectId}/repository/branches`, {
      method: "POST",
      token: readRepositoryToken,
      json: { branch: "nope", ref: "main" },
    });
    expect(write.status).toBe(403);
    expect(await write.json()).toEqual({
      error: "insufficient_scope",
      error_description: "The request requires higher privileges than provided by the access token.",
      scope: "api",
    });
    const project = await s.api(`/projects/${projectId}`, { token: readRepositoryToken });
    expect(project.status).toBe(403);
    expect(await project.json()).toMatchObject({ error: "insufficient_scope", scope: "api read_api" });
  });

  it("is still refused where only read_user is held", async () => {
    const userOnly = await createUserWithToken(s, ["read_user"]);
    const res = await s.api(`/projects/${projectId}/repository/tree`, { token: userOnly.token });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "insufficient_scope", scope: "api read_api read_repository" });
  });
});

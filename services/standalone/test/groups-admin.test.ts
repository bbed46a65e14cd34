// Groups administration end to end (document 3 "Groups"): GET /groups filters, statistics and
// keyset pages (also anonymously), GET /groups/:id with with_projects and the Owner-only fields,
// /groups/:id/descendant_groups, group and project transfers, over fetch and @gitbeaker/rest.
import { databaseUrlFor } from "@quarry/database";
import { startTestSmtp, type TestSmtp } from "@quarry/hook-service/testing";
import { waitFor } from "@quarry/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestStack(undefined, { smtpUrl: smtp.url });
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  await smtp?.close();
});

const { post, put } = jsonRequests(() => s);

/** Reads ci-service's database. */
async function ciSql(sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: databaseUrlFor(s.options.serverUrl, `${s.options.prefix}_ci`) });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}
const paths = async (path: string, token?: string | null) => ((await jsonBody(await s.api(path, { token }), 200)) as { path: string }[]).map((g) => g.path);

describe("GET /groups", () => {
  it("takes the filters of document 3, with statistics for administrators only", async () => {
    const tag = `gl${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const other = await createUserWithToken(s);
    const a = await jsonBody(await post("/groups", { name: `${tag} Alpha`, path: `${tag}-alpha`, visibility: "public" }, owner.token), 201);
    const b = await jsonBody(await post("/groups", { name: `${tag} Beta`, path: `${tag}-beta`, visibility: "internal" }, owner.token), 201);
    await jsonBody(await post("/groups", { name: `${tag} Sub`, path: "sub", parent_id: a.id, visibility: "public" }, owner.token), 201);
    const project = await jsonBody(await post("/projects", { name: "stats", namespace_id: a.id }, owner.token), 201);
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(321, 1)]), "f.bin");
    await jsonBody(await s.api(`/projects/${project.id}/uploads`, { method: "POST", body: form, token: owner.token }), 201);

    expect(await paths(`/groups?search=${tag}`, owner.token)).toEqual([`${tag}-alpha`, `${tag}-beta`, "sub"]);
    // A non-member sees nothing by default, the visible groups with all_available; anonymous callers the public ones.
    expect(await paths(`/groups?search=${tag}`, other.token)).toEqual([]);
    expect(await paths(`/groups?search=${tag}&all_available=true`, other.token)).toEqual([`${tag}-alpha`, `${tag}-beta`, "sub"]);
    expect(await paths(`/groups?search=${tag}`, null)).toEqual([`${tag}-alpha`, "sub"]);
    expect(await paths(`/groups?search=${tag}&skip_groups[]=${b.id}&top_level_only=true`, owner.token)).toEqual([`${tag}-alpha`]);
    expect(await paths(`/groups?search=${tag}&visibility=internal`, owner.token)).toEqual([`${tag}-beta`]);
    expect(await paths(`/groups?search=${tag}&order_by=id&sort=desc`, owner.token)).toEqual(["sub", `${tag}-beta`, `${tag}-alpha`]);
    expect(await paths(`/groups?search=${tag}&owned=true&min_access_level=50&active=true`, owner.token)).toHaveLength(3);
    expect(await paths(`/groups?search=${tag}&archived=true`, owner.token)).toEqual([]);
    expect(await paths(`/groups?search=${tag}-beta&order_by=similarity`, owner.token)).toEqual([`${tag}-beta`]);
    expect(await jsonBody(await s.api("/groups?order_by=size"), 400)).toEqual({ error: "order_by does not have a valid value" });
    expect(await jsonBody(await s.api("/groups?min_access_level=31"), 400)).toEqual({ error: "min_access_level does not have a valid value" });

    const listed = (await jsonBody(await s.api(`/groups?search=${tag}&statistics=true`), 200)) as Record<string, unknown>[];
    const alpha = listed.find((g) => g.id === a.id)!;
    expect(alpha).toMatchObject({
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: "developer",
      subgroup_creation_level: "maintainer",
      emails_disabled: false,
      emails_enabled: true,
      lfs_enabled: true,
      default_branch_protection: 2,
      default_branch_protection_defaults: { allow_force_push: false },
      statistics: { storage_size: 321, uploads_size: 321, repository_size: 0, wiki_size: 0, job_artifacts_size: 0 },
      root_storage_statistics: { storage_size: 321, uploads_size: 321, container_registry_size: 0 },
    });
    const sub = listed.find((g) => g.path === "sub")!;
    expect(sub.statistics).toMatchObject({ storage_size: 0 });
    expect(sub).not.toHaveProperty("root_storage_statistics");
    const forOwner = (await jsonBody(await s.api(`/groups?search=${tag}&statistics=true`, { token: owner.token }), 200)) as Record<string, unknown>[];
    expect(forOwner.some((g) => "statistics" in g)).toBe(false);

    const api = s.gitlab(owner.token);
    const viaGitbeaker = await api.Groups.all({ search: tag, orderBy: "path", sort: "desc", topLevelOnly: true, minAccessLevel: 50 });
    expect(viaGitbeaker.map((g) => g.path)).toEqual([`${tag}-beta`, `${tag}-alpha`]);
  });

  it("pages by keyset in name order, also without authentication; other orders answer 405", async () => {
    const tag = `gk${Date.now().toString(36)}`;
    for (const n of ["c", "a", "b"]) await jsonBody(await post("/groups", { name: `${tag} ${n}`, path: `${tag}-${n}`, visibility: "public" }), 201);
    const first = await s.api(`/groups?search=${tag}&pagination=keyset&per_page=2`, { token: null });
    expect(((await jsonBody(first, 200)) as { path: string }[]).map((g) => g.path)).toEqual([`${tag}-a`, `${tag}-b`]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toContain("cursor=");
    const second = await fetch(next!);
    expect(((await jsonBody(second, 200)) as { path: string }[]).map((g) => g.path)).toEqual([`${tag}-c`]);
    expect(second.headers.get("link")).toBeNull();
    expect(await jsonBody(await s.api(`/groups?pagination=keyset&order_by=path`, { token: null }), 405)).toEqual({
      message: "Keyset pagination is not yet available for this type of request",
    });
    expect(await paths(`/groups?search=${tag}&pagination=keyset&order_by=id&sort=desc`, null)).toEqual([`${tag}-b`, `${tag}-a`, `${tag}-c`]);
  });
});

describe("GET /groups/:id and descendant groups", () => {
  it("shows projects unless with_projects=false, Owner-only fields to Owners, and every descendant", async () => {
    const tag = `gd${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const reader = await createUserWithToken(s);
    const g = await jsonBody(await post("/groups", { name: tag, path: tag, visibility: "public" }, owner.token), 201);
    const mid = await jsonBody(await post("/groups", { name: "mid", path: "mid", parent_id: g.id, visibility: "public" }, owner.token), 201);
    await jsonBody(await post("/groups", { name: "leaf", path: "leaf", parent_id: mid.id, visibility: "public" }, owner.token), 201);
    await jsonBody(await post("/projects", { name: "inside", namespace_id: g.id, visibility: "public" }, owner.token), 201);

    const asOwner = await jsonBody(await s.api(`/groups/${g.id}`, { token: owner.token }), 200);
    expect(asOwner).toMatchObject({
      full_path: tag,
      shared_with_groups: [],
      shared_projects: [],
      enabled_git_access_protocol: "all",
      prevent_sharing_groups_outside_hierarchy: false,
    });
    expect(asOwner.projects.map((p: { path: string }) => p.path)).toEqual(["inside"]);
    const asReader = await jsonBody(await s.api(`/groups/${g.id}`, { token: reader.token }), 200);
    expect(asReader).not.toHaveProperty("enabled_git_access_protocol");
    expect(asReader).not.toHaveProperty("runners_token");
    expect(await jsonBody(await s.api(`/groups/${tag}?with_projects=false`, { token: null }), 200)).not.toHaveProperty("projects");
    const shown = await s.gitlab(reader.token).Groups.show(g.id);
    expect(shown.full_path).toBe(tag);

    expect(await paths(`/groups/${g.id}/descendant_groups`, null)).toEqual(["leaf", "mid"]);
    expect(await paths(`/groups/${g.id}/subgroups`, null)).toEqual(["mid"]);
    expect(await paths(`/groups/${g.id}/descendant_groups?search=lea`, reader.token)).toEqual(["leaf"]);
    expect(await jsonBody(await s.api("/groups/999999/descendant_groups"), 404)).toEqual({ message: "404 Group Not Found" });
  });
});

describe("group runner registration tokens", () => {
  it("shows runners_token to Owners and administrators, resets it, and registers a group runner with it", async () => {
    const tag = `gr${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const maintainer = await createUserWithToken(s);
    const g = await jsonBody(await post("/groups", { name: tag, path: tag }, owner.token), 201);
    await jsonBody(await post(`/groups/${g.id}/members`, { user_id: maintainer.id, access_level: 40 }, owner.token), 201);
    const token = (await jsonBody(await s.api(`/groups/${g.id}`, { token: owner.token }), 200)).runners_token;
    expect(token).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
    expect((await jsonBody(await s.api(`/groups/${g.id}`), 200)).runners_token).toBe(token);
    expect(await jsonBody(await s.api(`/groups/${g.id}`, { token: maintainer.token }), 200)).not.toHaveProperty("runners_token");

    const register = (registrationToken: string) =>
      fetch(`${s.url}/api/v4/runners`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: registrationToken, description: "group box" }),
      });
    const registered = await jsonBody(await register(token), 201);
    expect(registered.token).toMatch(/^glrt-/);
    // No runner read API yet: ci-service's row shows what was registered.
    const rows = await ciSql("SELECT runner_type, group_id, project_id, description FROM runners WHERE id = $1", [registered.id]);
    expect(rows).toEqual([{ runner_type: "group_type", group_id: g.id, project_id: null, description: "group box" }]);

    expect(await jsonBody(await post(`/groups/${g.id}/runners/reset_registration_token`, {}, maintainer.token), 403)).toEqual({ message: "403 Forbidden" });
    const reset = await jsonBody(await post(`/groups/${g.id}/runners/reset_registration_token`, {}, owner.token), 201);
    expect(reset).toEqual({ token: expect.stringMatching(/^GR1348941/), token_expires_at: null });
    expect(await jsonBody(await register(token), 403)).toEqual({ message: "403 Forbidden" });
    expect((await jsonBody(await s.api(`/groups/${g.id}`, { token: owner.token }), 200)).runners_token).toBe(reset.token);
  });
});

describe("transfers", () => {
  it("POST /groups/:id/transfer moves a group under another one and back to the top level, with GitLab's errors", async () => {
    const tag = `gt${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const stranger = await createUserWithToken(s);
    const src = await jsonBody(await post("/groups", { name: `${tag} src`, path: `${tag}-src` }, owner.token), 201);
    const dst = await jsonBody(await post("/groups", { name: `${tag} dst`, path: `${tag}-dst` }, owner.token), 201);
    const project = await jsonBody(await post("/projects", { name: "moved-along", namespace_id: src.id }, owner.token), 201);

    const moved = await jsonBody(await post(`/groups/${src.id}/transfer`, { group_id: dst.id }, owner.token), 201);
    expect(moved).toMatchObject({ id: src.id, parent_id: dst.id, full_path: `${tag}-dst/${tag}-src`, full_name: `${tag} dst / ${tag} src` });
    const p = await jsonBody(await s.api(`/projects/${project.id}`, { token: owner.token }), 200);
    expect(p.path_with_namespace).toBe(`${tag}-dst/${tag}-src/moved-along`);
    expect(await jsonBody(await post(`/groups/${src.id}/transfer`, { group_id: dst.id }, owner.token), 400)).toEqual({
      message: "Transfer failed: Group is already associated to the parent group.",
    });
    expect(await jsonBody(await post(`/groups/${src.id}/transfer`, { group_id: dst.id }, stranger.token), 404)).toEqual({ message: "404 Group Not Found" });
    expect(await jsonBody(await post(`/groups/${src.id}/transfer`, { group_id: 999999 }, owner.token), 404)).toEqual({ message: "404 Group Not Found" });

    // @gitbeaker/rest: Groups.transfer without a target makes it top-level again.
    const top = await s.gitlab(owner.token).Groups.transfer(src.id);
    expect(top).toMatchObject({ parent_id: null, full_path: `${tag}-src` });
    expect(await jsonBody(await post(`/groups/${src.id}/transfer`, {}, owner.token), 400)).toEqual({
      message: "Transfer failed: Group is already a root group.",
    });
  });

  it("PUT /projects/:id/transfer moves a project by namespace id or path, keeps its repository, with GitLab's errors", async () => {
    const tag = `pt${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const maintainer = await createUserWithToken(s);
    const g = await jsonBody(await post("/groups", { name: tag, path: tag }, owner.token), 201);
    const project = await jsonBody(await post("/projects", { name: "travel", initialize_with_readme: true }, owner.token), 201);
    const moved = await jsonBody(await put(`/projects/${project.id}/transfer`, { namespace: tag }, owner.token), 200);
    expect(moved).toMatchObject({ id: project.id, path_with_namespace: `${tag}/travel`, namespace: { id: g.id, full_path: tag } });
    // The members get GitLab's moved_project mail (project_transfer event).
    await waitFor(() =>
      expect(smtp.mails.filter((m) => m.headers.subject === "travel | Project was moved").map((m) => m.to.join(","))).toEqual([
        `${owner.username}@example.com`,
      ]),
    );
    expect(smtp.mails.find((m) => m.headers.subject === "travel | Project was moved")?.body).toContain(`${s.url}/${tag}/travel`);
    // Hashed storage: the repository did not move; its README is still there.
    const file = await jsonBody(
      await s.api(`/projects/${encodeURIComponent(`${tag}/travel`)}/repository/files/README.md?ref=main`, { token: owner.token }),
      200,
    );
    expect(file.file_name).toBe("README.md");

    expect(await jsonBody(await put(`/projects/${project.id}/transfer`, { namespace: g.id }, owner.token), 400)).toEqual({
      message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
    });
    expect(await jsonBody(await put(`/projects/${project.id}/transfer`, {}, owner.token), 400)).toEqual({ error: "namespace is missing" });
    expect(await jsonBody(await put(`/projects/${project.id}/transfer`, { namespace: "no-such-namespace" }, owner.token), 404)).toEqual({
      message: "404 Namespace Not Found",
    });
    await jsonBody(await post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 }, owner.token), 201);
    expect(await jsonBody(await put(`/projects/${project.id}/transfer`, { namespace: maintainer.username }, maintainer.token), 403)).toEqual({
      message: "403 Forbidden",
    });

    // @gitbeaker/rest: Projects.transfer back to the owner's namespace.
    const back = await s.gitlab(owner.token).Projects.transfer(project.id, owner.username);
    expect(back.path_with_namespace).toBe(`${owner.username}/travel`);

    // Administrators' POST /groups/:id/projects/:project_id moves it into the group (GroupDetail).
    expect(await jsonBody(await post(`/groups/${g.id}/projects/${project.id}`, {}, owner.token), 403)).toEqual({ message: "403 Forbidden" });
    const into = await jsonBody(await post(`/groups/${g.id}/projects/${project.id}`, {}), 201);
    expect(into).toMatchObject({ id: g.id, full_path: tag });
    expect(into.projects.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual([`${tag}/travel`]);
  });
});

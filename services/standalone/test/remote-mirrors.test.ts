import { createServer, type AddressInfo } from "node:net";
import { startGitHttpRemote, waitFor, type GitHttpRemote } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

const USER = "mirror-user";
const PASSWORD = "Mirr0r-Secret-pw";

type Mirror = Record<string, unknown> & { id: number; url: string; update_status: string; last_error: string | null };

let s: TestStack;
let remote: GitHttpRemote;
let projectId: number;
let n = 0;

/** A fresh bare repository on the receiver; the URL with and without credentials. */
function target() {
  const name = `target-${++n}`;
  const plain = remote.createRepository(name);
  return { name, plain, withCreds: plain.replace("http://", `http://${USER}:${PASSWORD}@`), scrubbed: plain.replace("http://", "http://*****:*****@") };
}

const json = async <T = Mirror>(res: Response, status: number): Promise<T> => {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(USER);
  return JSON.parse(text) as T;
};

const create = async (body: Record<string, unknown>, id = projectId) =>
  json(await s.api(`/projects/${id}/remote_mirrors`, { method: "POST", json: body }), 201);
const show = async (id: number, project = projectId) => json(await s.api(`/projects/${project}/remote_mirrors/${id}`), 200);
const sync = async (id: number, project = projectId) =>
  expect((await s.api(`/projects/${project}/remote_mirrors/${id}/sync`, { method: "POST" })).status).toBe(204);
const settled = (id: number, project = projectId) =>
  waitFor(
    async () => {
      const m = await show(id, project);
      return m.update_status === "finished" || m.update_status === "failed" ? m : null;
    },
    { message: "mirror update to end", timeoutMs: 20_000 },
  );

/** The project's branches and tags as the API reports them: ref → commit id. */
async function projectRefs(id = projectId): Promise<Record<string, string>> {
  const branches = (await (await s.api(`/projects/${id}/repository/branches?per_page=100`)).json()) as { name: string; commit: { id: string } }[];
  const tags = (await (await s.api(`/projects/${id}/repository/tags?per_page=100`)).json()) as { name: string; target: string }[];
  return {
    ...Object.fromEntries(branches.map((b) => [`refs/heads/${b.name}`, b.commit.id])),
    ...Object.fromEntries(tags.map((t) => [`refs/tags/${t.name}`, t.target])),
  };
}

async function commitFile(branch: string, file: string, id = projectId) {
  const res = await s.api(`/projects/${id}/repository/files/${encodeURIComponent(file)}`, {
    method: "POST",
    json: { branch, content: `content of ${file}\n`, commit_message: `Add ${file}` },
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

beforeAll(async () => {
  s = await startTestStack();
  remote = await startGitHttpRemote({ username: USER, password: PASSWORD });
  const project = await s.gitlab().Projects.create({ name: "mirrored", initializeWithReadme: true });
  projectId = project.id;
  await s.api(`/projects/${projectId}/repository/branches`, { method: "POST", json: { branch: "feature", ref: "main" } });
  await s.api(`/projects/${projectId}/repository/tags`, { method: "POST", json: { tag_name: "v1.0", ref: "main", message: "First" } });
  await commitFile("feature", "feature.txt");
});
afterAll(async () => {
  await s?.destroy();
  await remote?.close();
});

describe("remote mirrors", () => {
  it("creates, lists, shows and updates with a scrubbed URL, in GitLab's shape (@gitbeaker/rest)", async () => {
    const t = target();
    const api = s.gitlab();
    const created = await api.ProjectRemoteMirrors.createPushMirror(projectId, t.withCreds, { enabled: true });
    expect(created).toEqual({
      id: expect.any(Number),
      enabled: true,
      url: t.scrubbed,
      update_status: "none",
      last_update_at: null,
      last_update_started_at: null,
      last_successful_update_at: null,
      last_error: null,
      only_protected_branches: false,
      keep_divergent_refs: false,
      auth_method: "password",
      mirror_branch_regex: null,
      host_keys: [],
    });
    expect(JSON.stringify(await api.ProjectRemoteMirrors.all(projectId))).not.toContain(PASSWORD);
    const listed = await json<Mirror[]>(await s.api(`/projects/${projectId}/remote_mirrors`), 200);
    expect(listed.find((m) => m.id === created.id)?.url).toBe(t.scrubbed);
    expect((await show(created.id as number)).url).toBe(t.scrubbed);
    const edited = await json(
      await s.api(`/projects/${projectId}/remote_mirrors/${created.id}`, { method: "PUT", json: { keep_divergent_refs: true, enabled: "0" } }),
      200,
    );
    expect(edited).toMatchObject({ url: t.scrubbed, keep_divergent_refs: true, enabled: false });
    expect((await s.api(`/projects/${projectId}/remote_mirrors/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await json(await s.api(`/projects/${projectId}/remote_mirrors/${created.id}`), 404)).toEqual({ message: "404 Not found" });
  });

  it("mirrors every branch and tag on sync, with visible status transitions and timestamps", async () => {
    const t = target();
    const m = await create({ url: t.withCreds, enabled: true });
    const release = remote.pause();
    await sync(m.id);
    // The push is held at the receiver: the mirror is scheduled or started meanwhile.
    const during = await waitFor(async () => {
      const x = await show(m.id);
      return x.update_status === "started" ? x : null;
    });
    expect(during.last_update_started_at).toEqual(expect.any(String));
    expect(during.last_update_at).toBeNull();
    release();
    const done = await settled(m.id);
    expect(done).toMatchObject({ update_status: "finished", last_error: null, url: t.scrubbed });
    expect(done.last_successful_update_at).toBe(done.last_update_at);
    expect(remote.refs(t.name)).toEqual(await projectRefs());
  });

  it("syncs automatically after a push to the project", async () => {
    const t = target();
    const m = await create({ url: t.withCreds, enabled: true });
    await sync(m.id);
    await settled(m.id);
    await commitFile("main", `pushed-${n}.txt`);
    const main = (await projectRefs())["refs/heads/main"];
    await waitFor(() => remote.refs(t.name)["refs/heads/main"] === main, { message: "the push to reach the mirror", timeoutMs: 20_000 });
    expect((await settled(m.id)).update_status).toBe("finished");
    expect(remote.refs(t.name)).toEqual(await projectRefs());
  });

  it("mirrors only protected branches, or only branches matching the regex (tags always)", async () => {
    const prot = target();
    const p = await create({ url: prot.withCreds, enabled: true, only_protected_branches: true });
    await sync(p.id);
    expect((await settled(p.id)).update_status).toBe("finished");
    const refs = await projectRefs();
    expect(remote.refs(prot.name)).toEqual({ "refs/heads/main": refs["refs/heads/main"], "refs/tags/v1.0": refs["refs/tags/v1.0"] });

    const re = target();
    const r = await create({ url: re.withCreds, enabled: true, mirror_branch_regex: "^feat" });
    expect(r).toMatchObject({ mirror_branch_regex: "^feat", only_protected_branches: false });
    await sync(r.id);
    expect((await settled(r.id)).update_status).toBe("finished");
    expect(remote.refs(re.name)).toEqual({ "refs/heads/feature": refs["refs/heads/feature"], "refs/tags/v1.0": refs["refs/tags/v1.0"] });
  });

  it("keeps a diverged remote branch and reports it in last_error", async () => {
    const t = target();
    const m = await create({ url: t.withCreds, enabled: true, keep_divergent_refs: true });
    await sync(m.id);
    await settled(m.id);
    // Someone pushes to the mirror directly: its feature moves to a commit the project lacks.
    const { execFileSync } = await import("node:child_process");
    const dir = remote.repositoryPath(t.name);
    const tree = execFileSync("git", ["--git-dir", dir, "rev-parse", "refs/heads/feature^{tree}"], { encoding: "utf8" }).trim();
    const theirs = execFileSync("git", ["--git-dir", dir, "commit-tree", tree, "-p", "refs/heads/feature", "-m", "theirs"], {
      encoding: "utf8",
      env: { ...process.env, GIT_AUTHOR_NAME: "X", GIT_AUTHOR_EMAIL: "x@example.com", GIT_COMMITTER_NAME: "X", GIT_COMMITTER_EMAIL: "x@example.com" },
    }).trim();
    execFileSync("git", ["--git-dir", dir, "update-ref", "refs/heads/feature", theirs]);
    await commitFile("feature", `ours-${n}.txt`);
    await waitFor(async () => (await show(m.id)).update_status === "failed", { message: "the push-triggered sync to fail", timeoutMs: 20_000 });
    const failed = await show(m.id);
    expect(failed.last_error).toBe("Some refs have diverged and have not been updated on the remote:\n\nrefs/heads/feature");
    expect(remote.refs(t.name)["refs/heads/feature"]).toBe(theirs);
    expect(remote.refs(t.name)["refs/heads/main"]).toBe((await projectRefs())["refs/heads/main"]);
  });

  it("fails with last_error when the remote is unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const m = await create({ url: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/gone.git`, enabled: true });
    expect(m.url).toBe(`http://*****:*****@127.0.0.1:${port}/gone.git`);
    await sync(m.id);
    const failed = await settled(m.id);
    expect(failed.update_status).toBe("failed");
    expect(failed.last_error).toMatch(/Failed to connect|Could not connect|unable to access/);
    expect(failed.last_successful_update_at).toBeNull();
  });

  it("answers GitLab's errors for bad input, disabled mirrors, and public keys", async () => {
    const base = `/projects/${projectId}/remote_mirrors`;
    expect(await json(await s.api(base, { method: "POST", json: {} }), 400)).toEqual({ error: "url is missing" });
    expect(await json(await s.api(base, { method: "POST", json: { url: "ftp://foo:bar@test.com" } }), 400)).toEqual({
      message: { url: ["is blocked: Only allowed schemes are http, https, ssh, git"] },
    });
    expect(await json(await s.api(base, { method: "POST", json: { url: "https://example.com/x.git", auth_method: "invalid" } }), 400)).toEqual({
      error: "auth_method does not have a valid value",
    });
    expect(await json(await s.api(base, { method: "POST", json: { url: "https://example.com/x.git", mirror_branch_regex: "^(?!wip)" } }), 400)).toEqual({
      message: { mirror_branch_regex: ["not valid RE2 syntax: invalid perl operator: (?!"] },
    });
    expect(
      await json(
        await s.api(base, { method: "POST", json: { url: "https://example.com/x.git", only_protected_branches: true, mirror_branch_regex: "x" } }),
        400,
      ),
    ).toEqual({
      error: "only_protected_branches, mirror_branch_regex are mutually exclusive",
    });
    const disabled = await create({ url: "https://example.com/x.git" });
    expect(disabled.enabled).toBe(false);
    expect(await json(await s.api(`${base}/${disabled.id}/sync`, { method: "POST" }), 400)).toEqual({
      message: "Cannot proceed with the push mirroring. Please verify your mirror configuration.",
    });
    expect(await json(await s.api(`${base}/${disabled.id}`, { method: "PUT", json: { auth_method: "invalid" } }), 400)).toEqual({
      message: { auth_method: ["is not included in the list"] },
    });
    expect(await json(await s.api(`${base}/${disabled.id}/public_key`), 404)).toEqual({ message: "404 Not found" });
    expect(await json(await s.api(`${base}/999999`), 404)).toEqual({ message: "404 Not found" });
    expect(await json(await s.api(`${base}/abc/sync`, { method: "POST" }), 404)).toEqual({ message: "404 Not found" });

    const ssh = await create({ url: "ssh://git@example.com/group/x.git", auth_method: "ssh_public_key", enabled: true });
    expect(ssh).toMatchObject({ url: "ssh://git@example.com/group/x.git", auth_method: "ssh_public_key" });
    const key = await json<{ public_key: string }>(await s.api(`${base}/${ssh.id}/public_key`), 200);
    expect(key.public_key).toMatch(/^ssh-ed25519 AAAA/);
  });

  it("is for Maintainers: 401 to lower roles, 404 to outsiders of a private project", async () => {
    const developer = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: developer.id, access_level: 30 } });
    const m = await create({ url: "https://example.com/y.git" });
    const base = `/projects/${projectId}/remote_mirrors`;
    for (const [method, path] of [
      ["GET", base],
      ["POST", base],
      ["GET", `${base}/${m.id}`],
      ["PUT", `${base}/${m.id}`],
      ["POST", `${base}/${m.id}/sync`],
      ["GET", `${base}/${m.id}/public_key`],
      ["DELETE", `${base}/${m.id}`],
    ] as const) {
      const dev = await s.api(path, {
        method,
        token: developer.token,
        json: method === "POST" || method === "PUT" ? { url: "https://example.com/z.git" } : undefined,
      });
      expect(dev.status, `${method} ${path}`).toBe(401);
      expect(await dev.json()).toEqual({ message: "401 Unauthorized" });
      expect((await s.api(path, { method, token: outsider.token })).status, `${method} ${path}`).toBe(404);
    }
    expect((await show(m.id)).id).toBe(m.id);
  });
});

describe("remote mirrors without local requests", () => {
  let strict: TestStack;
  beforeAll(async () => {
    strict = await startTestStack(undefined, { allowLocalRequests: false });
  });
  afterAll(() => strict?.destroy());

  it("refuses loopback and private URLs with GitLab's url errors", async () => {
    const project = await strict.gitlab().Projects.create({ name: "guarded-mirror", initializeWithReadme: true });
    const post = (url: string) => strict.api(`/projects/${project.id}/remote_mirrors`, { method: "POST", json: { url } });
    const local = await post(`http://${USER}:${PASSWORD}@127.0.0.1:9/x.git`);
    expect(local.status).toBe(400);
    expect(await local.json()).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
    const lan = await post("https://192.168.1.10/x.git");
    expect(await lan.json()).toEqual({ message: { url: ["is blocked: Requests to the local network are not allowed"] } });
    const link = await post("http://169.254.169.254/latest");
    expect(await link.json()).toEqual({ message: { url: ["is blocked: Requests to the link local network are not allowed"] } });
    expect(await (await strict.api(`/projects/${project.id}/remote_mirrors`)).json()).toEqual([]);
  });
});

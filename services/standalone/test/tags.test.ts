import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { createClient } from "@quarry/grpc";
import { hookV1 } from "@quarry/proto";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;
let head: string;
let git: (...args: string[]) => string;

beforeAll(async () => {
  s = await startTestStack();
  const project = await s.gitlab().Projects.create({ name: "taggy", initializeWithReadme: true });
  projectId = project.id;
  reporter = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reporter.id, access_level: 20 } });
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
  git = (...args) =>
    execFileSync("git", ["--git-dir", gitDir, ...args], {
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "T",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "T",
        GIT_COMMITTER_EMAIL: "t@example.com",
        GIT_COMMITTER_DATE: "2099-01-01T00:00:00+00:00",
      },
    }).trim();
  head = git("rev-parse", "refs/heads/main");
});
afterAll(() => s?.destroy());

const url = (suffix = "") => `/projects/${projectId}/repository/tags${suffix}`;

describe("tags", () => {
  it("creates, lists, reads and deletes tags with @gitbeaker/rest", async () => {
    const api = s.gitlab();
    const light = await api.Tags.create(projectId, "v1.9.0", "main");
    expect(light).toMatchObject({ name: "v1.9.0", message: null, target: head, created_at: null, release: null, protected: false });
    expect(light.commit).toMatchObject({ id: head, title: "Initial commit", web_url: `${s.url}/root/taggy/-/commit/${head}` });
    const annotated = await api.Tags.create(projectId, "release/v1.10.0", head, { message: "Release 1.10" });
    expect(annotated).toMatchObject({ name: "release/v1.10.0", message: "Release 1.10", protected: false, commit: { id: head } });
    expect(annotated.target).toBe(git("rev-parse", "refs/tags/release/v1.10.0"));
    expect(annotated.target).not.toBe(head);
    expect(annotated.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);

    expect((await api.Tags.all(projectId, { orderBy: "name", sort: "asc" })).map((t) => t.name)).toEqual(["release/v1.10.0", "v1.9.0"]);
    expect(await api.Tags.show(projectId, "release/v1.10.0")).toMatchObject({ name: "release/v1.10.0", message: "Release 1.10" });
    const unencoded = await s.api(url("/release/v1.10.0"));
    expect(unencoded.status).toBe(200);
    expect(await unencoded.json()).toMatchObject({ name: "release/v1.10.0" });

    await api.Tags.remove(projectId, "release/v1.10.0");
    expect((await api.Tags.all(projectId)).map((t) => t.name)).toEqual(["v1.9.0"]);
    await api.Tags.remove(projectId, "v1.9.0");
  });

  it("orders by updated (default, newest first), name and version; searches and pages with X-Total", async () => {
    const later = git("commit-tree", `${head}^{tree}`, "-p", head, "-m", "committed in 2099");
    for (const [name, ref] of [
      ["v1.9.0", head],
      ["v1.10.0", head],
      ["v1.10.0-rc1", head],
      ["alpha", later],
    ] as const) {
      expect((await s.api(url(), { method: "POST", json: { tag_name: name, ref } })).status).toBe(201);
    }
    const names = async (q: string) => ((await (await s.api(url(`?${q}`))).json()) as { name: string }[]).map((t) => t.name);
    expect(await names("order_by=version&sort=asc")).toEqual(["alpha", "v1.9.0", "v1.10.0-rc1", "v1.10.0"]);
    expect(await names("order_by=version")).toEqual(["v1.10.0", "v1.10.0-rc1", "v1.9.0", "alpha"]);
    expect(await names("order_by=name&sort=desc")).toEqual(["v1.9.0", "v1.10.0-rc1", "v1.10.0", "alpha"]);
    // Lightweight tags are dated by their commit; equal dates go by name.
    expect(await names("")).toEqual(["alpha", "v1.10.0", "v1.10.0-rc1", "v1.9.0"]);
    expect(await names("sort=asc")).toEqual(["v1.10.0", "v1.10.0-rc1", "v1.9.0", "alpha"]);
    expect(await names("search=%5Ev1.10&order_by=name&sort=asc")).toEqual(["v1.10.0", "v1.10.0-rc1"]);
    expect(await names("search=rc1%24")).toEqual(["v1.10.0-rc1"]);
    const paged = await s.api(url("?order_by=name&sort=asc&per_page=3&page=2"));
    expect(paged.headers.get("x-total")).toBe("4");
    expect(paged.headers.get("x-total-pages")).toBe("2");
    expect(((await paged.json()) as { name: string }[]).map((t) => t.name)).toEqual(["v1.9.0"]);
    const bad = await s.api(url("?order_by=size"));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "order_by does not have a valid value" });
  });

  it("answers tag creation failures with 405 and GitLab's message", async () => {
    const post = (json: unknown, token?: string) => s.api(url(), { method: "POST", json, token });
    const cases: [unknown, string][] = [
      [{ tag_name: "bad name", ref: "main" }, "Tag name invalid"],
      [{ tag_name: "v1.9.0", ref: "main" }, "Tag v1.9.0 already exists"],
      [{ tag_name: "new", ref: "does-not-exist" }, "Target does-not-exist is invalid"],
    ];
    for (const [json, message] of cases) {
      const res = await post(json);
      expect(res.status, message).toBe(405);
      expect(await res.json()).toEqual({ message });
    }
    const missing = await post({ tag_name: "x" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "ref is missing" });
    expect((await post({ tag_name: "r", ref: "main" }, reporter.token)).status).toBe(403);
    expect((await s.api(url("/v1.9.0"), { token: reporter.token })).status).toBe(200);
  });

  it("answers 404 Tag Not Found for unknown tags (read and delete)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await s.api(url("/nope"), { method });
      expect(res.status, method).toBe(404);
      expect(await res.json()).toEqual({ message: "404 Tag Not Found" });
    }
    const del = await s.api(url("/v1.10.0-rc1"), { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
  });

  it("reads signatures: 404 for unsigned and lightweight tags, the type for signed ones", async () => {
    await s.api(url(), { method: "POST", json: { tag_name: "annotated", ref: "main", message: "Not signed" } });
    for (const name of ["annotated", "v1.9.0"]) {
      const res = await s.api(url(`/${name}/signature`));
      expect(res.status, name).toBe(404);
      expect(await res.json()).toEqual({ message: "404 Signature Not Found" });
    }
    await expect(s.gitlab().Tags.showSignature(projectId, "annotated")).rejects.toThrow();
    const body = `object ${head}\ntype commit\ntag signed/pgp\ntagger T <t@example.com> 1767225600 +0000\n\nSigned\n-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n`;
    const object = execFileSync("git", ["--git-dir", git("rev-parse", "--absolute-git-dir"), "mktag"], { input: body, encoding: "utf8" }).trim();
    git("update-ref", "refs/tags/signed/pgp", object);
    expect(await s.gitlab().Tags.showSignature(projectId, "signed/pgp")).toEqual({ signature_type: "PGP", verification_status: "unverified" });
    expect(await (await s.api(url("/signed/pgp/signature"))).json()).toEqual({ signature_type: "PGP", verification_status: "unverified" });
    expect(await (await s.api(url("/signed/pgp"))).json()).toMatchObject({ name: "signed/pgp", message: "Signed\n", target: object });
    const gone = await s.api(url("/nope/signature"));
    expect(await gone.json()).toEqual({ message: "404 Tag Not Found" });
  });

  it("publishes tag_push events for creation and deletion", async () => {
    const hook = createClient(hookV1.HookService, s.addresses.hook, { deadlineMs: 5000 });
    try {
      const pushes = async () => (await hook.ListRecordedEvents({ eventName: "tag_push", limit: 1000 })).events.map((e) => JSON.parse(e.payloadJson));
      await s.api(url(), { method: "POST", json: { tag_name: "evented", ref: "main", message: "With events" } });
      const object = git("rev-parse", "refs/tags/evented");
      const created = await waitFor(async () => (await pushes()).find((e) => e.ref === "refs/tags/evented" && /^0+$/.test(e.before)));
      expect(created).toMatchObject({
        object_kind: "tag_push",
        event_name: "tag_push",
        after: object,
        checkout_sha: head,
        message: "With events",
        user_username: "root",
        project_id: projectId,
        total_commits_count: 1,
        commits: [{ id: head }],
      });
      expect((await s.api(url("/evented"), { method: "DELETE" })).status).toBe(204);
      const deleted = await waitFor(async () => (await pushes()).find((e) => e.ref === "refs/tags/evented" && /^0+$/.test(e.after)));
      expect(deleted).toMatchObject({ before: object, checkout_sha: null, commits: [] });
    } finally {
      hook.close();
    }
  });
});

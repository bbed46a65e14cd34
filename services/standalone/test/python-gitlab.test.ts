// Drives the API with python-gitlab (Debian's python3-gitlab and its CLI), a second client nobody
// here wrote. Each script in ./python gets the URL, a token and its inputs as QUARRY_* variables
// and prints one JSON document; a failing script's traceback becomes the test's error.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CI_YAML, instanceRunner, requestJobAs, reportJob } from "./ci-fixture.ts";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";
import { createIssue, createIssueNote } from "./collab-api.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const run = promisify(execFile);
// Debian installs the CLI as python-gitlab; upstream calls it gitlab.
const CLI = ["/usr/bin/python-gitlab", "/usr/bin/gitlab"].find((p) => existsSync(p)) ?? "python-gitlab";

let s: TestStack;
let receiver: Receiver;
const work = mkdtempSync(path.join(tmpdir(), "quarry-pygitlab-"));

beforeAll(async () => {
  s = await startTestStack(undefined, { jobRequestWaitMs: 0 });
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.destroy();
  rmSync(work, { recursive: true, force: true });
});

const py = (script: string, vars: Record<string, string | number> = {}) => runPythonScript(s, script, vars);

/** The python-gitlab CLI with JSON output. */
async function cli(args: string[]): Promise<unknown> {
  try {
    const { stdout } = await run(CLI, ["-o", "json", ...args], { env: { ...process.env, HOME: work } });
    return stdout.trim() ? JSON.parse(stdout) : null;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${CLI} ${args.join(" ")} failed:\n${e.stderr || e.stdout || e.message}`);
  }
}

describe("python-gitlab against Quarry", () => {
  it("manages users, their personal access tokens and identities; acts as a user with sudo", async () => {
    expect(await py("users_tokens", { suffix: "u1" })).toEqual({
      me: { username: "root", is_admin: true },
      created: { id: expect.any(Number), username: "pyu1", name: "Py User" },
      found: [expect.any(Number)],
      bio: "from python",
      token: { name: "py-token", scopes: ["api", "read_api"], active: true, user_id: expect.any(Number) },
      as_user: "pyu1",
      user_tokens: ["py-token"],
      sudo_project: "pyu1",
      sudo_current_user: "pyu1",
      identities: [{ provider: "ldapmain", extern_uid: "uid=idau1", saml_provider_id: null }],
      by_extern_uid: ["idau1"],
      revoked_rejected: 401,
      deleted: 404,
    });
  });

  it("manages project and group labels", async () => {
    expect(await py("labels", { suffix: "l1" })).toEqual({
      group_label: { name: "group wide", color: "#00ff00", text_color: "#1F1E24" },
      created: { name: "needs review", color: "#0000FF", priority: 2, is_project_label: true },
      listed: ["group wide", "needs review"],
      own: ["needs review"],
      searched: ["group wide"],
      saved: { name: "reviewed", color: "#FF0000" },
      subscribed: true,
      unsubscribed: false,
      deleted: 404,
      promoted: { name: "lift me", in_group: ["lift me"] },
      group_saved: "for everyone",
      group_after_delete: [],
    });
  });

  it("manages issues", async () => {
    expect(await py("issues", { suffix: "i1" })).toEqual({
      created: { iid: 1, labels: ["bug", "p1"], state: "opened", tasks: { count: 1, completed_count: 0 }, type: "ISSUE" },
      listed: [2, 1],
      by_label: [1],
      confidential: [2],
      searched: ["Docs"],
      closed: "closed",
      opened: [2],
      edited: ["Docs 2", ["docs"]],
      label_events: [
        ["add", "bug"],
        ["add", "p1"],
      ],
      state_events: ["closed"],
      group: ["Crash", "Docs 2"],
      mine: ["Crash", "Docs 2"],
      missing_title: [400, "title is missing"],
      after_delete: [1],
    });
  });

  it("awards emoji on issues and issue notes", async () => {
    const res = await s.api("/projects", { method: "POST", json: { name: "py-award-emoji", visibility: "private" } });
    const project = (await res.json()) as { id: number };
    const issue = await createIssue(s, project.id);
    const note = await createIssueNote(s, project.id, issue.iid);
    expect(await py("award_emoji", { project: project.id, issue_iid: issue.iid, note_id: note.id })).toEqual({
      created: { name: "thumbsup", awardable_type: "Issue", user: "root" },
      listed: ["thumbsup", "tada"],
      got: "thumbsup",
      duplicate: { status: 404, message: "404 Award Emoji Name has already been taken Not Found" },
      after_delete: ["tada"],
      note_created: { name: "rocket", awardable_type: "Note" },
      note_listed: ["rocket"],
      note_got: "rocket",
      note_deleted: 404,
    });
  });

  it("manages personal and project snippets", async () => {
    expect(await py("snippets", { suffix: "s1" })).toEqual({
      created: { title: "py-s1", file_name: "hello.py", visibility: "public", project_id: null },
      files: ["a.txt", "b.txt"],
      listed: ["py-multi-s1", "py-s1"],
      public: ["py-s1"],
      content: "print('hi')\n",
      saved: { title: "py-renamed-s1", description: "described" },
      deleted: 404,
      project_created: { title: "project one", project_id: true, web_url: true },
      project_listed: ["project one"],
      project_content: "# notes",
      project_changed: "# changed",
      project_after_delete: [],
    });
  });

  it("manages project and group milestones", async () => {
    expect(await py("milestones", { suffix: "m1" })).toEqual({
      group_milestone: { title: "roadmap", iid: 1, group_id: true },
      created: { title: "1.0", iid: 1, due_date: "2030-03-01", state: "active", expired: false },
      listed: ["1.0", "2.0"],
      with_ancestors: ["1.0", "2.0", "roadmap"],
      searched: ["2.0"],
      by_iid: ["1.0"],
      closed: "closed",
      active: ["1.0"],
      bad_dates: [400, 'Failed to create milestone {:due_date=>["must be greater than start date"]}'],
      after_delete: ["2.0"],
      group_after_delete: [],
    });
  });

  it("manages issue notes", async () => {
    const res = await s.api("/projects", { method: "POST", json: { name: "py-notes", visibility: "public" } });
    const project = (await res.json()) as { id: number };
    await createIssue(s, project.id, { iid: 1 });
    expect(await py("notes", { project_id: project.id })).toEqual({
      created: { body: "from python", system: false, noteable_type: "Issue", noteable_iid: 1, internal: false },
      backdated: "2020-01-01T00:00:00.000Z",
      internal: true,
      listed: ["back-dated", "from python", "internal"],
      default_order: ["internal", "from python", "back-dated"],
      saved: "edited in python",
      blank: [400, '400 Bad request - Note {:note=>["can\'t be blank"]}'],
      deleted: [404, "404 Note Not Found"],
      unknown_issue: [404, "404 Issue Not Found"],
    });
  });

  it("manages groups, subgroups and projects", async () => {
    expect(await py("groups_projects", { suffix: "g1" })).toEqual({
      group: { full_path: "py-group-g1", visibility: "internal", parent_id: null },
      sub: { full_path: "py-group-g1/tools", parent_id: expect.any(Number) },
      subgroups: [true],
      by_path: true,
      group_description: "edited",
      project: { path_with_namespace: "py-group-g1/tools/py-project", default_branch: "main", empty_repo: false, visibility: "private" },
      fetched_id_matches: true,
      listed: true,
      in_group: true,
      updated: { description: "updated", topics: ["py", "gitlab"] },
      empty: { empty_repo: true, path: "py-empty-g1" },
      project_deleted: 404,
      group_deleted: 404,
    });
  });

  it("manages files, commits, branches, tags and protected branches", async () => {
    expect(await py("repository", { suffix: "r1" })).toEqual({
      file_created: { file_path: "docs/hello.txt", branch: "main" },
      file_get: { content: "hello\n", encoding: "base64", size: 6, file_name: "hello.txt" },
      file_raw: "hello\n",
      file_updated: "hello again\n",
      file_deleted: 404,
      commit: { title: "Several actions", parent_count: 1 },
      commit_titles: ["Several actions", "Remove hello", "Update hello", "Add hello", "Initial commit"],
      paged_titles_match: true,
      commit_get: { id_matches: true, message: "Several actions" },
      commit_diff: [
        ["README.md", false],
        ["a.txt", true],
        ["b.bin", true],
      ],
      moved_diff: [["a.txt", "c.txt", true]],
      branch: { name: "feature", commit_matches: true, protected: false },
      branches: ["feature", "main"],
      branch_get: "feature",
      branches_after_delete: ["main"],
      tag: { name: "v1.0", message: "first release", target_matches: true },
      tags: ["v1.0"],
      tag_get: "v1.0",
      tags_after_delete: [],
      protected: { name: "release/*", push: [40], merge: [30] },
      protected_list: ["main", "release/*"],
      protected_get: "release/*",
      protected_after_delete: ["main"],
    });
  });

  it("manages project and group webhooks, and a push through the API is delivered", async () => {
    const hookUrl = `${receiver.url}/hook`;
    const out = await py("hooks", { suffix: "h1", hook_url: hookUrl });
    expect(out).toEqual({
      hook: { url: hookUrl, push_events: true, tag_push_events: true, merge_requests_events: false, project_id: expect.any(Number), has_token: false },
      hooks: [hookUrl],
      updated_push_events: false,
      hooks_after_delete: [],
      hook_deleted: 404,
      group_hooks: [hookUrl],
      group_hooks_after_delete: [],
      delivery_project: "root/py-hooks-h1",
    });
    const delivery = await waitFor(() => receiver.requests.find((r) => r.json?.object_kind === "push"), { message: "push delivery" });
    expect(delivery.headers["x-service-token"]).toBe("s3cret");
    expect(delivery.json).toMatchObject({
      project: { path_with_namespace: "root/py-hooks-h1" },
      commits: [{ message: expect.stringContaining("Trigger the hook") }],
    });
  });

  it("sets the note and issue switches of project and group hooks; a comment is delivered as a Note Hook", async () => {
    const created = async (res: Response) => {
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBe(201);
      return json as { id: number };
    };
    const group = await created(await s.api("/groups", { method: "POST", json: { name: "py-note-hooks", path: "py-note-hooks", visibility: "public" } }));
    const project = await created(await s.api("/projects", { method: "POST", json: { name: "py-note-hooks", namespace_id: group.id, visibility: "public" } }));
    await createIssue(s, project.id, { iid: 1 });
    const hookUrl = `${receiver.url}/py-notes`;
    const out = (await py("note_hooks", { project_id: project.id, group_id: group.id, hook_url: hookUrl })) as { note_id: number };
    expect(out).toEqual({
      project_hook: { note_events: true, confidential_note_events: false, issues_events: false, confidential_issues_events: true },
      project_hook_updated: { note_events: true, confidential_note_events: true, issues_events: false, confidential_issues_events: true },
      group_hook: { note_events: false, confidential_note_events: true, issues_events: true, confidential_issues_events: false },
      note_id: expect.any(Number),
    });
    const delivery = await waitFor(() => receiver.requests.find((r) => r.path === "/py-notes" && r.json?.object_kind === "note"), { message: "note delivery" });
    expect(delivery.headers["x-service-event"]).toBe("Note Hook");
    expect(delivery.json).toMatchObject({ event_type: "note", object_attributes: { id: out.note_id, note: "hooked from python", action: "create" } });
  });

  it("sets avatars on users, projects and groups with file objects, and reads them back", async () => {
    // python-gitlab names every avatar part avatar.png, so PNG bytes it is.
    const png = path.join(work, "avatar.png");
    const big = path.join(work, "big.png");
    const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    writeFileSync(png, PNG);
    writeFileSync(big, Buffer.concat([PNG, Buffer.alloc(300 * 1024)]));
    const out = (await py("avatars", { suffix: "a1", png, big })) as { project: { id: number }; group_avatar_url: string };
    const image = { content_type: "image/png", size: PNG.length };
    expect(out).toEqual({
      user_avatar_url: expect.stringMatching(new RegExp(`^${s.url}/uploads/-/system/user/avatar/\\d+/avatar\\.png$`)),
      user_image: image,
      project: { id: expect.any(Number), avatar_url: `${s.url}/uploads/-/system/project/avatar/${out.project.id}/avatar.png`, description: "pictured" },
      project_image: image,
      group_avatar_url: expect.stringMatching(new RegExp(`^${s.url}/uploads/-/system/group/avatar/\\d+/avatar\\.png$`)),
      group_after_save: { avatar_url: out.group_avatar_url, description: "repictured" },
      too_big: { status: 400, message: { avatar: ["is too big (should be at most 200 KiB)"] } },
    });
  });

  it("creates pipelines and reads jobs, traces and artifacts; plays, cancels and retries", async () => {
    const setup = (await py("ci_setup", { suffix: "c1", ci_yaml: CI_YAML })) as { project_id: number; pipeline: { id: number } };
    expect(setup).toEqual({
      project_id: expect.any(Number),
      pipeline: { id: expect.any(Number), ref: "main", status: "pending", source: "api" },
      jobs: [
        ["compile", "build", "pending"],
        ["deploy", "test", "created"],
        ["rspec", "test", "created"],
      ],
    });

    // A runner runs compile (trace and artifact archive) and rspec, as over HTTP.
    writeFileSync(path.join(work, "app.txt"), "built\n");
    await run("zip", ["-q", "a.zip", "app.txt"], { cwd: work });
    const runnerToken = await instanceRunner(s, ["shell"]);
    for (const name of ["compile", "rspec"]) {
      const job = await requestJobAs(s, runnerToken);
      expect(job.job_info.name).toBe(name);
      const text = `running ${name}\n`;
      const traced = await fetch(`${s.url}/api/v4/jobs/${job.id}/trace`, {
        method: "PATCH",
        headers: { "JOB-TOKEN": job.token, "Content-Type": "text/plain", "Content-Range": `0-${text.length - 1}` },
        body: text,
      });
      expect(traced.status).toBe(202);
      if (name === "compile") {
        const form = new FormData();
        form.append("file", new Blob([readFileSync(path.join(work, "a.zip"))]), "artifacts.zip");
        const uploaded = await fetch(`${s.url}/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip`, {
          method: "POST",
          headers: { "JOB-TOKEN": job.token },
          body: form,
        });
        expect(uploaded.status).toBe(201);
      }
      await reportJob(s, job, "success");
    }

    const out = await py("ci_inspect", { project_id: setup.project_id, pipeline_id: setup.pipeline.id });
    expect(out).toEqual({
      pipelines: [[setup.pipeline.id, "success"]],
      pipeline: { status: "success", ref: "main", sha_matches: true },
      pipeline_jobs: [
        ["compile", "success"],
        ["deploy", "manual"],
        ["rspec", "success"],
      ],
      project_jobs: ["compile", "rspec"],
      compile: { status: "success", stage: "build", artifacts_file: "artifacts.zip" },
      trace: "running compile\n",
      archive_names: ["app.txt"],
      artifact_file: "built\n",
      artifact_by_ref: "built\n",
      kept_expire_at: null,
      deploy_after_play: "pending",
      deploy_after_cancel: "canceled",
      retried: { name: "deploy", new_id: true },
      artifacts_deleted: 404,
      second_after_cancel: "canceled",
      // compile pending again beside finished-looking jobs: GitLab's composite status says running or pending.
      second_after_retry: expect.stringMatching(/^(pending|running)$/),
      pipeline_deleted: 404,
    });
  });
});

describe("the python-gitlab CLI against Quarry", () => {
  it("creates, lists and shows projects with --server-url and --private-token", async () => {
    const auth = ["--server-url", s.url, "--private-token", s.rootToken];
    const created = (await cli([...auth, "project", "create", "--name", "cli-made", "--initialize-with-readme", "true"])) as { id: number };
    expect(created).toMatchObject({ path_with_namespace: "root/cli-made", default_branch: "main" });
    const listed = (await cli([...auth, "project", "list", "--search", "cli-made"])) as { id: number }[];
    expect(listed.map((p) => p.id)).toEqual([created.id]);
    const branches = (await cli([...auth, "project-branch", "list", "--project-id", String(created.id)])) as { name: string }[];
    expect(branches.map((b) => b.name)).toEqual(["main"]);
  });

  it("reads its server and token from a configuration file (-c)", async () => {
    const config = path.join(work, "python-gitlab.cfg");
    writeFileSync(config, `[global]\ndefault = quarry\n\n[quarry]\nurl = ${s.url}\nprivate_token = ${s.rootToken}\napi_version = 4\n`);
    const me = await cli(["-c", config, "current-user", "get"]);
    expect(me).toMatchObject({ username: "root", is_admin: true });
    const group = await cli(["-c", config, "-g", "quarry", "group", "create", "--name", "CLI Group", "--path", "cli-group"]);
    expect(group).toMatchObject({ full_path: "cli-group", name: "CLI Group" });
  });
});

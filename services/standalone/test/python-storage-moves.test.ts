// Repository storage moves through the two real clients: @gitbeaker/rest's SnippetRepositoryStorageMoves
// and ProjectRepositoryStorageMoves (instance-wide list, show, bulk schedule), and python-gitlab
// (test/python/storage_moves.py: Debian's 3.12 has no storage-move managers, so the script uses
// python-gitlab's own HTTP layer). Plain fetch: storage-moves.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
const fastRoot = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-fast-storage-"));
const { post } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack(undefined, { storages: [{ name: "fast", root: fastRoot, weight: 0 }] });
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  fs.rmSync(fastRoot, { recursive: true, force: true });
});

const newSnippet = async (title: string) =>
  (await jsonBody(await post("/snippets", { title, visibility: "private", files: [{ file_path: "f.txt", content: title }] }), 201)) as { id: number };

/** Polls until `check` holds (at most ~30 s of polling). */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  let last = await read();
  for (let i = 0; i < 600 && !check(last); i++) {
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}

describe("storage moves through python-gitlab and @gitbeaker/rest", () => {
  it("python-gitlab schedules, follows and lists snippet and project moves", async () => {
    const snippet = await newSnippet("py");
    const project = await jsonBody(await post("/projects", { name: "py-moving", initialize_with_readme: true }), 201);
    expect(await runPythonScript(s, "storage_moves", { snippet_id: snippet.id, project_id: project.id })).toEqual({
      scheduled: ["scheduled", "default", "fast", snippet.id],
      finished: "finished",
      snippet_storage: "fast",
      snippet_moves: [true],
      all_has_it: true,
      unknown: [400, { destination_storage_name: ["is not included in the list"] }],
      project_scheduled: ["scheduled", project.id],
      project_storage: "fast",
      bulk: { message: "202 Accepted" },
      bulk_unknown: [400, "source_storage_name does not have a valid value"],
    });
    // The bulk move took the project back to default.
    const back = await eventually(
      async () => (await jsonBody(await s.api(`/projects/${project.id}`), 200)).repository_storage as string,
      (v) => v === "default",
    );
    expect(back).toBe("default");
  });

  it("@gitbeaker/rest schedules bulk moves and lists and shows them", async () => {
    const api = s.gitlab();
    const snippet = await newSnippet("gb");
    const project = await jsonBody(await post("/projects", { name: "gb-moving", initialize_with_readme: true }), 201);
    const accepted = await api.SnippetRepositoryStorageMoves.schedule("default", { destinationStorageName: "fast" });
    expect(accepted).toEqual({ message: "202 Accepted" });
    await api.ProjectRepositoryStorageMoves.schedule("default", { destinationStorageName: "fast" });

    const mine = await eventually(
      async () => (await api.SnippetRepositoryStorageMoves.all()).find((m) => (m.snippet as { id: number } | null)?.id === snippet.id),
      (m) => m?.state === "finished",
    );
    expect(mine).toMatchObject({
      state: "finished",
      source_storage_name: "default",
      destination_storage_name: "fast",
      snippet: { id: snippet.id, title: "gb" },
    });
    expect(await api.SnippetRepositoryStorageMoves.show(mine!.id as number)).toEqual(mine);

    const pm = await eventually(
      async () => (await api.ProjectRepositoryStorageMoves.all()).find((m) => (m.project as { id: number } | null)?.id === project.id),
      (m) => m?.state === "finished",
    );
    expect(pm).toMatchObject({
      state: "finished",
      destination_storage_name: "fast",
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
    });
    expect((await api.ProjectRepositoryStorageMoves.show(pm!.id as number)).project).toEqual(pm!.project);
    expect((await api.Projects.show(project.id)).repository_storage).toBe("fast");
  });
});

// Merge request and project snippet notes through the two real clients (issue notes have theirs
// in notes.test.ts and python-gitlab.test.ts): @gitbeaker/rest's MergeRequestNotes and
// ProjectSnippetNotes, python-gitlab's mergerequest.notes and snippet.notes, and fetch for the
// single-note read of a snippet comment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, commitFiles, createMergeRequest, createProject } from "./mr-api.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
const { post } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

async function projectWithMergeRequestAndSnippet() {
  const project = await createProject(s, { visibility: "private" });
  await commitFiles(s, project.id, "feature", { "f.txt": "f\n" }, { startBranch: "main" });
  const mr = await createMergeRequest(s, project.id, { source_branch: "feature" });
  const snippet = await jsonBody(
    await post(`/projects/${project.id}/snippets`, { title: "snip", visibility: "private", files: [{ file_path: "a.txt", content: "a" }] }),
    201,
  );
  return { project, mr, snippet };
}

describe("merge request and project snippet notes with @gitbeaker/rest", () => {
  it("creates, lists, shows, edits and removes comments on both", async () => {
    const { project, mr, snippet } = await projectWithMergeRequestAndSnippet();
    const dev = await createUserWithToken(s);
    await addMember(s, project.id, dev.id, 30);
    const api = s.gitlab(dev.token);

    const onMr = await api.MergeRequestNotes.create(project.id, mr.iid, "gitbeaker on the merge request");
    expect(onMr).toMatchObject({ noteable_type: "MergeRequest", noteable_iid: mr.iid, author: { username: dev.username } });
    expect((await api.MergeRequestNotes.all(project.id, mr.iid)).map((n) => n.body)).toEqual(["gitbeaker on the merge request"]);
    expect((await api.MergeRequestNotes.show(project.id, mr.iid, onMr.id)).body).toBe("gitbeaker on the merge request");
    expect((await api.MergeRequestNotes.edit(project.id, mr.iid, onMr.id, { body: "edited" })).body).toBe("edited");
    await api.MergeRequestNotes.remove(project.id, mr.iid, onMr.id);
    await expect(api.MergeRequestNotes.show(project.id, mr.iid, onMr.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });

    const onSnippet = await api.ProjectSnippetNotes.create(project.id, snippet.id, "gitbeaker on the snippet");
    expect(onSnippet).toMatchObject({ noteable_type: "Snippet", noteable_id: snippet.id, noteable_iid: null });
    expect((await api.ProjectSnippetNotes.all(project.id, snippet.id)).map((n) => n.body)).toEqual(["gitbeaker on the snippet"]);
    expect((await api.ProjectSnippetNotes.show(project.id, snippet.id, onSnippet.id)).body).toBe("gitbeaker on the snippet");
    expect((await api.ProjectSnippetNotes.edit(project.id, snippet.id, onSnippet.id, { body: "edited" })).body).toBe("edited");
    await api.ProjectSnippetNotes.remove(project.id, snippet.id, onSnippet.id);
    await expect(api.ProjectSnippetNotes.show(project.id, snippet.id, onSnippet.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});

describe("GET /projects/:id/snippets/:snippet_id/notes/:note_id", () => {
  it("reads one snippet comment; 404 Note Not Found for another snippet's or an unknown one, 404 Snippet Not Found for outsiders", async () => {
    const { project, snippet } = await projectWithMergeRequestAndSnippet();
    const other = await jsonBody(
      await post(`/projects/${project.id}/snippets`, { title: "other", visibility: "private", files: [{ file_path: "b.txt", content: "b" }] }),
      201,
    );
    const outsider = await createUserWithToken(s);
    const path = `/projects/${project.id}/snippets/${snippet.id}/notes`;
    const note = await jsonBody(await post(path, { body: "read me" }), 201);
    expect(await jsonBody(await s.api(`${path}/${note.id}`), 200)).toEqual(note);
    expect(await jsonBody(await s.api(`/projects/${project.id}/snippets/${other.id}/notes/${note.id}`), 404)).toEqual({ message: "404 Note Not Found" });
    expect(await jsonBody(await s.api(`${path}/999999`), 404)).toEqual({ message: "404 Note Not Found" });
    expect(await jsonBody(await s.api(`${path}/${note.id}`, { token: outsider.token }), 404)).toEqual({ message: "404 Project Not Found" });
  });
});

describe("merge request and project snippet notes with python-gitlab", () => {
  it("creates, lists, gets, saves and deletes comments on both", async () => {
    const { project, mr, snippet } = await projectWithMergeRequestAndSnippet();
    expect(await runPythonScript(s, "mr_snippet_notes", { project_id: project.id, mr_iid: mr.iid, snippet_id: snippet.id })).toEqual({
      mr_created: { body: "python on the merge request", noteable_type: "MergeRequest", noteable_iid: mr.iid },
      mr_listed: ["python on the merge request"],
      mr_saved: "edited on the merge request",
      mr_deleted: [404, "404 Note Not Found"],
      snippet_created: { body: "python on the snippet", noteable_type: "Snippet", noteable_id: snippet.id },
      snippet_listed: ["python on the snippet"],
      snippet_saved: "edited on the snippet",
      snippet_deleted: [404, "404 Note Not Found"],
      unknown_snippet: [404, "404 Snippet Not Found"],
    });
  });
});

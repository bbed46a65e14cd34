import { afterAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

let second: TestStack | undefined;
afterAll(() => second?.destroy());

describe("restart", () => {
  it("keeps users, groups, projects and repositories", async () => {
    const first = await startTestStack();
    const api = first.gitlab();
    const user = await api.Users.create({ username: "keeper", email: "keeper@example.com", name: "Keeper", password: "keeper-pass-1" });
    const group = await api.Groups.create("Kept", "kept");
    const project = await api.Projects.create({ name: "Kept Repo", namespaceId: group.id, initializeWithReadme: true });
    await first.halt();

    second = await startTestStack(first.options);
    const again = second.gitlab();
    expect((await again.Users.show(user.id)).username).toBe("keeper");
    expect((await again.Groups.show("kept")).id).toBe(group.id);
    const p = await again.Projects.show("kept/kept-repo");
    expect(p).toMatchObject({ id: project.id, empty_repo: false });
    // root was not created twice, and its token still works.
    const roots = await again.Users.all({ username: "root" });
    expect(roots).toHaveLength(1);
  });
});

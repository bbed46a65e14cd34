import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskPathFor } from "./convert.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("TransferGroup", () => {
  it("moves a group with its descendants and projects under another group, and back to the top level", async () => {
    const a = await f.user();
    const src = await f.c.CreateGroup({ actor: a, name: "Src", path: `src-${a.userId}`, visibility: "public" });
    const child = await f.c.CreateGroup({ actor: a, name: "Child", path: "child", parentId: src.id, visibility: "public" });
    const project = await f.c.CreateProject({ actor: a, name: "deep", namespaceId: child.id, visibility: "public" });
    const dst = await f.c.CreateGroup({ actor: a, name: "Dst", path: `dst-${a.userId}`, visibility: "internal" });
    const moved = await f.c.TransferGroup({ actor: a, idOrPath: String(src.id), parentId: dst.id });
    expect(moved).toMatchObject({ fullPath: `dst-${a.userId}/src-${a.userId}`, fullName: "Dst / Src", parentId: dst.id, visibility: "internal" });
    // Descendants follow; the more open ones are lowered to the new parent's visibility.
    expect(await f.c.GetGroup({ actor: a, idOrPath: `dst-${a.userId}/src-${a.userId}/child` })).toMatchObject({ id: child.id, visibility: "internal" });
    const p = await f.c.GetProject({ actor: a, idOrPath: String(project.id) });
    expect(p).toMatchObject({
      pathWithNamespace: `dst-${a.userId}/src-${a.userId}/child/deep`,
      visibility: "internal",
      diskPath: diskPathFor(Number(project.id)),
    });
    expect((await f.c.ListGroups({ actor: a, parentId: dst.id, descendants: true })).groups.map((g) => g.id).sort()).toEqual([src.id, child.id].sort());
    // Back to the top level.
    const top = await f.c.TransferGroup({ actor: a, idOrPath: String(src.id), parentId: 0 });
    expect(top).toMatchObject({ fullPath: `src-${a.userId}`, parentId: 0 });
    expect(await f.c.GetGroup({ actor: a, idOrPath: `src-${a.userId}/child` })).toMatchObject({ id: child.id });
  });

  it("answers GitLab's errors", async () => {
    const a = await f.user();
    const b = await f.user();
    const g = await f.c.CreateGroup({ actor: a, name: "G", path: `g-${a.userId}` });
    const sub = await f.c.CreateGroup({ actor: a, name: "Sub", path: "sub", parentId: g.id });
    const other = await f.c.CreateGroup({ actor: a, name: "Other", path: `other-${a.userId}` });
    await f.c.CreateGroup({ actor: a, name: "Sub", path: "sub", parentId: other.id });
    const foreign = await f.c.CreateGroup({ actor: b, name: "Foreign", path: `foreign-${b.userId}`, visibility: "public" });
    const msg = async (p: Promise<unknown>) => (await failure(p)).body.message;
    expect(await msg(f.c.TransferGroup({ actor: a, idOrPath: String(g.id) }))).toBe("Transfer failed: Group is already a root group.");
    expect(await msg(f.c.TransferGroup({ actor: a, idOrPath: String(sub.id), parentId: g.id }))).toBe(
      "Transfer failed: Group is already associated to the parent group.",
    );
    expect(await msg(f.c.TransferGroup({ actor: a, idOrPath: String(sub.id), parentId: other.id }))).toBe(
      "Transfer failed: The parent group already has a subgroup or a project with the same path.",
    );
    expect(await msg(f.c.TransferGroup({ actor: a, idOrPath: String(g.id), parentId: sub.id }))).toBe(
      "Transfer failed: Cannot transfer group to one of its subgroup.",
    );
    expect(await msg(f.c.TransferGroup({ actor: a, idOrPath: String(g.id), parentId: foreign.id }))).toBe(
      "Transfer failed: You don't have enough permissions.",
    );
    expect((await failure(f.c.TransferGroup({ actor: b, idOrPath: String(foreign.id), parentId: g.id }))).status).toBe(404);
    expect((await failure(f.c.TransferGroup({ actor: a, idOrPath: String(g.id), parentId: 999999 }))).body).toEqual({ message: "404 Group Not Found" });
  });
});

describe("TransferProject", () => {
  it("moves a project to a group by path, keeps its disk path, and publishes project_transfer", async () => {
    const a = await f.user();
    await f.c.CreateGroup({ actor: a, name: "Target", path: `target-${a.userId}` });
    const p = await f.c.CreateProject({ actor: a, name: "movable", visibility: "public" });
    const moved = await f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: `target-${a.userId}` });
    expect(moved).toMatchObject({ pathWithNamespace: `target-${a.userId}/movable`, visibility: "private", diskPath: p.diskPath });
    const events = (await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.project_rename" } }))
      .map((e) => e.payload as Record<string, unknown>)
      .filter((e) => e.project_id === Number(p.id));
    expect(events).toEqual([
      expect.objectContaining({
        event_name: "project_transfer",
        path_with_namespace: `target-${a.userId}/movable`,
        old_path_with_namespace: p.pathWithNamespace,
      }),
    ]);
    // And back to the user's namespace by id.
    expect((await f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: String(a.namespaceId) })).pathWithNamespace).toBe(p.pathWithNamespace);
  });

  it("answers GitLab's errors", async () => {
    const a = await f.user();
    const b = await f.user();
    const g = await f.c.CreateGroup({ actor: a, name: "T", path: `t-${a.userId}` });
    const foreign = await f.c.CreateGroup({ actor: b, name: "F", path: `f-${b.userId}`, visibility: "public" });
    const p = await f.c.CreateProject({ actor: a, name: "proj" });
    await f.c.CreateProject({ actor: a, name: "proj", namespaceId: g.id });
    const msg = async (pr: Promise<unknown>) => (await failure(pr)).body.message;
    expect(await msg(f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: String(a.namespaceId) }))).toBe(
      'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
    );
    expect(await msg(f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: String(g.id) }))).toBe(
      'Failed to transfer project {:new_namespace=>["Project with same path in target namespace already exists"]}',
    );
    expect(await msg(f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: String(foreign.id) }))).toBe(
      `Failed to transfer project {:new_namespace=>["You don't have permission to transfer projects into that namespace."]}`,
    );
    expect((await failure(f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: String(b.namespaceId) }))).body).toEqual({
      message: "404 Namespace Not Found",
    });
    // Ids beyond PostgreSQL's integer name no project or namespace (not a failed query).
    expect((await failure(f.c.TransferProject({ actor: a, idOrPath: "2147483648", namespace: String(g.id) }))).body).toEqual({
      message: "404 Project Not Found",
    });
    expect((await failure(f.c.TransferProject({ actor: a, idOrPath: String(p.id), namespace: "99999999999" }))).body).toEqual({
      message: "404 Namespace Not Found",
    });
    // Maintainers cannot transfer (GitLab's change_namespace is Owner's).
    await f.c.AddMember({ actor: a, source: { kind: "project", idOrPath: String(p.id) }, userId: b.userId, accessLevel: 40 });
    expect((await failure(f.c.TransferProject({ actor: b, idOrPath: String(p.id), namespace: String(b.namespaceId) }))).status).toBe(403);
  });
});

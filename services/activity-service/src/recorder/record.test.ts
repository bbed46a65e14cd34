import type { BusMessage } from "@quarry/bus";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../test-fixture.ts";
import { recordAuditEvent } from "./record.ts";

const msg = (subject: string, data: object): BusMessage<unknown> => ({ subject, data, id: `m-${Math.random()}`, deliveryCount: 1, publishedAt: new Date() });
const actor = { user_id: 1, ip_address: "198.51.100.7" };

describe("recordAuditEvent", () => {
  let f: Fixture;
  let record: ReturnType<typeof recordAuditEvent>;
  const authors: number[] = [];

  beforeAll(async () => {
    f = await startFixture("record");
    record = recordAuditEvent({
      prisma: f.svc.deps.prisma,
      async entityPathOf(type, id) {
        return type === "Project" && id === 7 ? "twitter/typeahead-js" : null;
      },
      async authorOf(id) {
        authors.push(id);
        return id === 1 ? { name: "Administrator", email: "admin@example.com" } : null;
      },
    });
  });
  beforeEach(() => f.svc.deps.prisma.auditEvent.deleteMany());
  afterAll(() => f?.stop());

  const rows = () => f.svc.deps.prisma.auditEvent.findMany({ orderBy: { id: "asc" } });

  it("records a group creation as GitLab's add group, once per event_id", async () => {
    const m = msg("quarry.identity.group_create", {
      event_id: "g-1",
      event_name: "group_create",
      group_id: 60,
      full_path: "flightjs",
      path: "flightjs",
      actor,
    });
    expect(await record(m)).toBe(true);
    expect(await record(m)).toBe(false);
    expect(await record({ ...m, id: "another-bus-id" })).toBe(false);
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({ sourceEventId: "g-1", authorId: 1, entityType: "Group", entityId: 60, eventName: "group_created" });
    expect(row!.details).toEqual({
      add: "group",
      author_name: "Administrator",
      author_email: "admin@example.com",
      author_class: "User",
      target_id: 60,
      target_type: "Group",
      target_details: "flightjs",
      ip_address: "198.51.100.7",
      entity_path: "flightjs",
    });
  });

  it("records project create, destroy, rename and transfer", async () => {
    const p = { project_id: 7, path_with_namespace: "twitter/typeahead-js", actor };
    await record(msg("quarry.identity.project_create", { ...p, event_id: "p-1", event_name: "project_create" }));
    await record(msg("quarry.identity.project_rename", { ...p, event_id: "p-2", event_name: "project_rename", old_path_with_namespace: "twitter/old" }));
    await record(
      msg("quarry.identity.project_rename", { ...p, event_id: "p-3", event_name: "project_transfer", old_path_with_namespace: "jquery/typeahead-js" }),
    );
    await record(msg("quarry.identity.project_destroy", { ...p, event_id: "p-4", event_name: "project_destroy" }));
    const r = await rows();
    expect(r.map((x) => [x.eventName, x.entityType, x.entityId])).toEqual([
      ["project_created", "Project", 7],
      ["project_path_updated", "Project", 7],
      ["project_namespace_updated", "Project", 7],
      ["project_destroyed", "Project", 7],
    ]);
    expect(r[1]!.details).toMatchObject({ change: "path", from: "twitter/old", to: "twitter/typeahead-js", entity_path: "twitter/typeahead-js" });
    expect(r[2]!.details).toMatchObject({ change: "namespace", from: "jquery", to: "twitter" });
    expect(r[3]!.details).toMatchObject({ remove: "project", target_details: "twitter/typeahead-js" });
  });

  it("records user create and destroy on the user; a gone author leaves the author's name null", async () => {
    await record(
      msg("quarry.identity.user_create", {
        event_id: "u-1",
        event_name: "user_create",
        user_id: 51,
        username: "andreas",
        actor: { user_id: 9, ip_address: "" },
      }),
    );
    await record(msg("quarry.identity.user_destroy", { event_id: "u-2", event_name: "user_destroy", user_id: 51, username: "andreas", actor }));
    const r = await rows();
    expect(r.map((x) => [x.eventName, x.entityType, x.entityId, x.authorId])).toEqual([
      ["user_created", "User", 51, 9],
      ["user_destroyed", "User", 51, 1],
    ]);
    expect(r[0]!.details).toMatchObject({ add: "user", author_name: null, ip_address: null, target_details: "andreas", entity_path: "andreas" });
    expect(r[1]!.details).toMatchObject({ remove: "user" });
  });

  it("records group member changes with the previous level as `from` and the group's full path", async () => {
    await record(msg("quarry.identity.group_create", { event_id: "g-2", event_name: "group_create", group_id: 61, full_path: "top/sub", actor }));
    const m = { group_id: 61, group_path: "sub", user_id: 5, user_username: "dev", expires_at: null, actor };
    await record(msg("quarry.identity.user_add_to_group", { ...m, event_id: "m-1", event_name: "user_add_to_group", group_access: "Developer" }));
    await record(msg("quarry.identity.user_update_for_group", { ...m, event_id: "m-2", event_name: "user_update_for_group", group_access: "Maintainer" }));
    await record(msg("quarry.identity.user_remove_from_group", { ...m, event_id: "m-3", event_name: "user_remove_from_group", group_access: "Maintainer" }));
    const r = (await rows()).slice(1);
    expect(r.map((x) => x.eventName)).toEqual(["member_created", "member_updated", "member_destroyed"]);
    expect(r[0]!.details).toMatchObject({
      add: "user_access",
      as: "Developer",
      expiry: "never",
      target_type: "User",
      target_id: 5,
      target_details: "dev",
      entity_path: "top/sub",
    });
    expect(r[1]!.details).toMatchObject({ change: "access_level", from: "Developer", to: "Maintainer" });
    expect(r[2]!.details).toMatchObject({ remove: "user_access", entity_path: "top/sub" });
  });

  it("records publisher-built audit records and ignores what is not audited", async () => {
    await record(
      msg("quarry.audit.event", {
        event_id: "a-1",
        event_name: "member_created",
        actor,
        entity_type: "Project",
        entity_id: 7,
        entity_path: "twitter/typeahead-js",
        target_type: "User",
        target_id: 5,
        target_details: "dev",
        details: { add: "user_access", as: "Reporter" },
      }),
    );
    expect(await record(msg("quarry.identity.token_revoke", { event_id: "t-1", event_name: "token_revoke", token_id: 1, user_id: 1 }))).toBe(false);
    expect(await record(msg("quarry.repo.push", { event_id: "x", object_kind: "push" }))).toBe(false);
    const r = await rows();
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ entityType: "Project", entityId: 7, eventName: "member_created", authorId: 1 });
    expect(r[0]!.details).toMatchObject({
      add: "user_access",
      as: "Reporter",
      target_details: "dev",
      ip_address: "198.51.100.7",
      entity_path: "twitter/typeahead-js",
    });
  });

  it("fills in the entity's path of a record that names the entity by id only", async () => {
    const base = {
      actor,
      entity_type: "Project",
      entity_path: "",
      target_type: "ProtectedBranch",
      target_id: 3,
      target_details: "main",
      details: { add: "protected_branch" },
    };
    await record(msg("quarry.audit.event", { ...base, event_id: "pb-1", event_name: "protected_branch_created", entity_id: 7 }));
    await record(msg("quarry.audit.event", { ...base, event_id: "pb-2", event_name: "protected_branch_created", entity_id: 8 }));
    const r = await rows();
    expect(r.map((x) => (x.details as { entity_path: string }).entity_path)).toEqual(["twitter/typeahead-js", ""]);
  });
});

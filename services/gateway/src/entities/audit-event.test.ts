import { describe, expect, it } from "vitest";
import { auditEvent } from "./audit-event.ts";

describe("auditEvent", () => {
  it("is EE::API::Entities::AuditEvent: the fields in GitLab's order, details parsed", () => {
    const e = auditEvent({
      id: 5,
      authorId: 1,
      entityId: 7,
      entityType: "Project",
      eventName: "project_path_updated",
      detailsJson: '{"change":"path","from":"a/b","to":"a/c","author_name":"Administrator","ip_address":"127.0.0.1"}',
      createdAt: "2026-05-26T22:55:04.230Z",
    });
    expect(Object.keys(e)).toEqual(["id", "author_id", "entity_id", "entity_type", "event_name", "details", "created_at"]);
    expect(e).toEqual({
      id: 5,
      author_id: 1,
      entity_id: 7,
      entity_type: "Project",
      event_name: "project_path_updated",
      details: { change: "path", from: "a/b", to: "a/c", author_name: "Administrator", ip_address: "127.0.0.1" },
      created_at: "2026-05-26T22:55:04.230Z",
    });
  });

  it("answers null event_name and empty details when the service sends none", () => {
    expect(auditEvent({ id: 1, authorId: 0, entityId: 1, entityType: "User", eventName: "", detailsJson: "", createdAt: "x" })).toMatchObject({
      event_name: null,
      details: {},
    });
  });
});

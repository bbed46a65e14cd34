import type { Hook__Output as Hook } from "@quarry/proto/types/hook/v1/Hook";
import { describe, expect, it } from "vitest";
import { hookEventEntity } from "./hook-event.ts";
import { hookEntity } from "./hook.ts";

const base: Hook = {
  id: 3,
  projectId: 0,
  groupId: 0,
  url: "https://example.com/{p}",
  name: "n",
  description: "",
  createdAt: "2026-01-01T00:00:00.000Z",
  enableSslVerification: true,
  alertStatus: "executable",
  disabledUntil: "",
  urlVariableKeys: ["p"],
  customHeaderKeys: [],
  pushEventsBranchFilter: "",
  branchFilterStrategy: "wildcard",
  customWebhookTemplate: "",
  uuid: "u",
  tokenSet: true,
  pushEvents: true,
  tagPushEvents: false,
  mergeRequestsEvents: false,
  repositoryUpdateEvents: false,
  issuesEvents: false,
  confidentialIssuesEvents: false,
  noteEvents: false,
  confidentialNoteEvents: false,
  pipelineEvents: false,
  wikiPageEvents: false,
  jobEvents: false,
  deploymentEvents: false,
  featureFlagEvents: false,
  releasesEvents: false,
  milestoneEvents: false,
  resourceAccessTokenEvents: false,
  subgroupEvents: true,
  emojiEvents: false,
  memberEvents: false,
  projectEvents: false,
};

describe("hookEntity", () => {
  it("project hooks: project_id, emoji_events, no group switches, empty strings as null, no secrets", () => {
    const e = hookEntity({ ...base, projectId: 9, emojiEvents: true }) as Record<string, unknown>;
    expect(e).toMatchObject({
      id: 3,
      emoji_events: true,
      project_id: 9,
      url_variables: [{ key: "p" }],
      custom_headers: [],
      disabled_until: null,
      push_events_branch_filter: null,
      custom_webhook_template: null,
    });
    for (const k of ["group_id", "subgroup_events", "member_events", "project_events", "token", "uuid", "token_set"]) expect(e).not.toHaveProperty(k);
  });

  it("group hooks: group_id and the group switches", () => {
    const e = hookEntity({ ...base, groupId: 4, disabledUntil: "2026-01-02T00:00:00.000Z", alertStatus: "temporarily_disabled" }) as Record<string, unknown>;
    expect(e).toMatchObject({
      group_id: 4,
      subgroup_events: true,
      emoji_events: false,
      member_events: false,
      project_events: false,
      disabled_until: "2026-01-02T00:00:00.000Z",
    });
    expect(e).not.toHaveProperty("project_id");
  });
});

describe("hookEventEntity", () => {
  it("exposes the delivery record's fields with JSON objects parsed", () => {
    expect(
      hookEventEntity({
        id: 1,
        url: "u",
        trigger: "push_hooks",
        requestHeadersJson: '{"X-Service-Token":"[REDACTED]"}',
        requestDataJson: '{"object_kind":"push"}',
        responseHeadersJson: "{}",
        responseBody: "ok",
        executionDuration: 0.5,
        responseStatus: "200",
        internalErrorMessage: "",
        createdAt: "x",
      }),
    ).toEqual({
      id: 1,
      url: "u",
      trigger: "push_hooks",
      request_headers: { "X-Service-Token": "[REDACTED]" },
      request_data: { object_kind: "push" },
      response_headers: {},
      response_body: "ok",
      execution_duration: 0.5,
      response_status: "200",
    });
  });
});

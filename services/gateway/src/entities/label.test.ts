import { describe, expect, it } from "vitest";
import { groupLabelEntity, projectLabelEntity } from "./label.ts";

const label = {
  id: 1,
  name: "bug",
  color: "#FFFF00",
  projectId: 2,
  groupId: 0,
  subscribed: false,
  openIssuesCount: 0,
  closedIssuesCount: 0,
  openMergeRequestsCount: 0,
  createdAt: "",
  updatedAt: "",
};

describe("label entities", () => {
  it("answers GitLab's ProjectLabel fields, counts only with_counts", () => {
    expect(projectLabelEntity({ ...label, description: "a < b", priority: 4 })).toEqual({
      id: 1,
      name: "bug",
      description: "a < b",
      description_html: "a &#60; b",
      text_color: "#1F1E24",
      color: "#FFFF00",
      subscribed: false,
      priority: 4,
      is_project_label: true,
    });
    expect(projectLabelEntity(label, { withCounts: true })).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
  });

  it("answers GroupLabel without priority and is_project_label", () => {
    const g = groupLabelEntity({ ...label, projectId: 0, groupId: 3, color: "#000000" });
    expect(g).toMatchObject({ description: null, description_html: "", text_color: "#FFFFFF" });
    expect(g).not.toHaveProperty("priority");
    expect(g).not.toHaveProperty("is_project_label");
  });
});

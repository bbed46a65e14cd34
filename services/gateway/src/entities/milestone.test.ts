import { describe, expect, it } from "vitest";
import { milestoneEntity } from "./milestone.ts";

const base = {
  id: 5,
  iid: 2,
  projectId: 0,
  groupId: 0,
  title: "t",
  state: "active",
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
  webPath: "/g/p/-/milestones/2",
};
const urls = { base: "http://q.example" };
const now = new Date("2030-06-15T12:00:00Z");

describe("milestoneEntity", () => {
  it("exposes project_id or group_id, whichever is set", () => {
    expect(milestoneEntity({ ...base, projectId: 3 }, urls, now)).toMatchObject({ project_id: 3 });
    expect(milestoneEntity({ ...base, projectId: 3 }, urls, now)).not.toHaveProperty("group_id");
    expect(milestoneEntity({ ...base, groupId: 4 }, urls, now)).not.toHaveProperty("project_id");
  });

  it("is expired only with a due date before today (Milestoneish#expired)", () => {
    expect(milestoneEntity({ ...base, dueDate: "2030-06-14" }, urls, now).expired).toBe(true);
    expect(milestoneEntity({ ...base, dueDate: "2030-06-15" }, urls, now).expired).toBe(false);
    expect(milestoneEntity(base, urls, now)).toMatchObject({ expired: false, due_date: null, start_date: null, description: null });
    expect(milestoneEntity(base, urls, now).web_url).toBe("http://q.example/g/p/-/milestones/2");
  });
});

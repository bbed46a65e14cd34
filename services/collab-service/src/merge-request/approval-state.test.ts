import { describe, expect, it } from "vitest";
import { approvalHookAction, approvalSettingsOf, approvalsLeft, eligibleToApprove, isApproved, mayApprove } from "./approval-state.ts";

const mr = { authorId: 1, assigneeIds: [2], state: "opened" };
const settings = approvalSettingsOf(null);

describe("approval state", () => {
  it("takes GitLab's defaults when the project sent no settings", () => {
    expect(settings).toEqual({ required: 0, resetOnPush: true, authorMayApprove: false, committersMayNotApprove: false });
  });

  it("counts as approved with the required approvals, or with one when none is required", () => {
    expect(isApproved(0, 0)).toBe(false);
    expect(isApproved(1, 0)).toBe(true);
    expect(isApproved(1, 2)).toBe(false);
    expect(isApproved(2, 2)).toBe(true);
    expect(approvalsLeft(1, 3)).toBe(2);
    expect(approvalsLeft(4, 3)).toBe(0);
  });

  it("lets Developers, and Guest authors or assignees, approve; never non-members or anonymous callers", () => {
    expect(mayApprove(30, 9, mr)).toBe(true);
    expect(mayApprove(20, 9, mr)).toBe(false);
    expect(mayApprove(10, 2, mr)).toBe(true);
    expect(mayApprove(10, 1, mr)).toBe(true);
    expect(mayApprove(0, 9, mr)).toBe(false);
    expect(mayApprove(50, 0, mr)).toBe(false);
  });

  it("refuses a second approval, a merged merge request, and authors and committers where the project says so", async () => {
    const base = { accessLevel: 30, userId: 9, mr, settings, hasApproved: false, isCommitter: async () => true };
    expect(await eligibleToApprove(base)).toBe(true);
    expect(await eligibleToApprove({ ...base, hasApproved: true })).toBe(false);
    expect(await eligibleToApprove({ ...base, mr: { ...mr, state: "merged" } })).toBe(false);
    expect(await eligibleToApprove({ ...base, userId: 1 })).toBe(false);
    expect(await eligibleToApprove({ ...base, userId: 1, settings: { ...settings, authorMayApprove: true } })).toBe(true);
    expect(await eligibleToApprove({ ...base, settings: { ...settings, committersMayNotApprove: true } })).toBe(false);
    expect(await eligibleToApprove({ ...base, settings: { ...settings, committersMayNotApprove: true }, isCommitter: async () => false })).toBe(true);
  });

  it("names the hook action as GitLab does", () => {
    expect(approvalHookAction("approve", false, true)).toBe("approved");
    expect(approvalHookAction("approve", true, true)).toBe("approved");
    expect(approvalHookAction("approve", false, false)).toBe("approval");
    expect(approvalHookAction("unapprove", true, false)).toBe("unapproved");
    expect(approvalHookAction("unapprove", false, false)).toBe("unapproval");
  });
});

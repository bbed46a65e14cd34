// Protected-branch changes made for a user write an audit record (quarry.audit.event) in the same
// transaction; repo-service's own calls (no actor) write none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { protectBranch } from "../rpc/protect-branch.ts";
import { unprotectBranch } from "../rpc/unprotect-branch.ts";
import { updateProtectedBranch } from "../rpc/update-protected-branch.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_audit");
});
afterAll(() => t?.close());

const actor = { userId: 4, isAdmin: false, system: "", ipAddress: "192.0.2.44" };

describe("protected branch audit records", () => {
  it("records create, update and removal with the actor; none without one", async () => {
    const base = { allowForcePush: false, codeOwnerApprovalRequired: false };
    const rule = await protectBranch(t.deps)({ projectId: 31, name: "stable", ...base, actor });
    await updateProtectedBranch(t.deps)({ projectId: 31, name: "stable", allowForcePush: true, actor });
    await unprotectBranch(t.deps)({ projectId: 31, name: "stable", actor });
    await protectBranch(t.deps)({ projectId: 31, name: "quiet", ...base });
    const rows = await t.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.audit.event" }, orderBy: { id: "asc" } });
    const common = {
      event_id: expect.any(String),
      actor: { user_id: 4, ip_address: "192.0.2.44" },
      entity_type: "Project",
      entity_id: 31,
      entity_path: "",
      target_type: "ProtectedBranch",
      target_id: Number(rule.id),
      target_details: "stable",
    };
    expect(rows.map((r) => r.payload)).toEqual([
      { ...common, event_name: "protected_branch_created", details: { add: "protected_branch" } },
      { ...common, event_name: "protected_branch_updated", details: { custom_message: "Changed protected branch stable" } },
      { ...common, event_name: "protected_branch_removed", details: { remove: "protected_branch" } },
    ]);
  });
});

import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { resolveMergeRequestScope } from "./access.ts";
import { commit, mergeRequestRow, repoProject } from "./merge-merge-request-fixture.ts";
import { detailedMergeStatus, failingCheck, mergeSettingsOf, mergeStatusFor, type MergeFacts } from "./merge-status.ts";

const facts = (over: Partial<MergeFacts> = {}): MergeFacts => ({
  state: "opened",
  draft: false,
  mergeStatus: "can_be_merged",
  headSha: "a".repeat(40),
  mergeAfter: null,
  now: new Date("2026-11-26T05:00:00Z"),
  settings: mergeSettingsOf({ mergeSettings: null }),
  unresolvedDiscussions: 0,
  headPipeline: null,
  autoMerge: false,
  approvals: 0,
  canFastForward: true,
  ...over,
});
const settings = (over: Partial<MergeFacts["settings"]>) => ({ ...mergeSettingsOf({ mergeSettings: null }), ...over });

describe("detailedMergeStatus", () => {
  it("answers mergeable when every check passes, and GitLab's defaults without settings", () => {
    expect(detailedMergeStatus(facts())).toBe("mergeable");
    expect(mergeSettingsOf({ mergeSettings: null })).toMatchObject({ mergeMethod: "merge", autocloseReferencedIssues: true, approvalsBeforeMerge: 0 });
  });

  it("names the first failing check in GitLab's order", () => {
    expect(detailedMergeStatus(facts({ state: "closed", draft: true }))).toBe("not_open");
    expect(detailedMergeStatus(facts({ state: "merged" }))).toBe("not_open");
    expect(detailedMergeStatus(facts({ mergeAfter: new Date("2026-11-27T00:00:00Z"), draft: true }))).toBe("merge_time");
    expect(detailedMergeStatus(facts({ mergeAfter: new Date("2026-11-25T00:00:00Z") }))).toBe("mergeable");
    expect(detailedMergeStatus(facts({ draft: true, mergeStatus: "cannot_be_merged" }))).toBe("draft_status");
    expect(detailedMergeStatus(facts({ headSha: null }))).toBe("commits_status");
    const resolveAll = settings({ onlyAllowMergeIfAllDiscussionsAreResolved: true });
    expect(detailedMergeStatus(facts({ unresolvedDiscussions: 2 }))).toBe("mergeable");
    expect(detailedMergeStatus(facts({ unresolvedDiscussions: 2, settings: resolveAll }))).toBe("discussions_not_resolved");
    expect(detailedMergeStatus(facts({ settings: settings({ approvalsBeforeMerge: 2 }), approvals: 1 }))).toBe("not_approved");
    expect(detailedMergeStatus(facts({ settings: settings({ approvalsBeforeMerge: 2 }), approvals: 2 }))).toBe("mergeable");
    expect(detailedMergeStatus(facts({ mergeStatus: "cannot_be_merged" }))).toBe("conflict");
  });

  it("applies the pipeline requirement: ci_must_pass, ci_still_running, skipped pipelines when allowed", () => {
    const mustPass = settings({ onlyAllowMergeIfPipelineSucceeds: true });
    expect(detailedMergeStatus(facts({ settings: mustPass }))).toBe("ci_must_pass");
    expect(detailedMergeStatus(facts({ settings: mustPass, headPipeline: { status: "running" } }))).toBe("ci_still_running");
    expect(detailedMergeStatus(facts({ settings: mustPass, headPipeline: { status: "pending" } }))).toBe("ci_still_running");
    expect(detailedMergeStatus(facts({ settings: mustPass, headPipeline: { status: "failed" } }))).toBe("ci_must_pass");
    expect(detailedMergeStatus(facts({ settings: mustPass, headPipeline: { status: "success" } }))).toBe("mergeable");
    expect(detailedMergeStatus(facts({ settings: mustPass, headPipeline: { status: "skipped" } }))).toBe("ci_must_pass");
    expect(detailedMergeStatus(facts({ settings: { ...mustPass, allowMergeOnSkippedPipeline: true }, headPipeline: { status: "skipped" } }))).toBe("mergeable");
    // Without the requirement a failed pipeline does not block, but a waiting auto-merge does.
    expect(detailedMergeStatus(facts({ headPipeline: { status: "failed" } }))).toBe("mergeable");
    expect(detailedMergeStatus(facts({ autoMerge: true, headPipeline: { status: "running" } }))).toBe("ci_still_running");
    // Setting auto-merge skips the CI check.
    expect(failingCheck(facts({ settings: mustPass, headPipeline: { status: "running" } }), { skipCi: true })).toBeNull();
  });

  it("asks for a rebase under fast-forward and semi-linear methods when the target moved", () => {
    for (const mergeMethod of ["ff", "rebase_merge"] as const) {
      expect(detailedMergeStatus(facts({ settings: settings({ mergeMethod }), canFastForward: false }))).toBe("need_rebase");
      expect(detailedMergeStatus(facts({ settings: settings({ mergeMethod }), canFastForward: true }))).toBe("mergeable");
    }
    expect(detailedMergeStatus(facts({ canFastForward: false }))).toBe("mergeable");
  });

  it("answers unchecked and checking while the git check is unknown", () => {
    expect(detailedMergeStatus(facts({ mergeStatus: "unchecked" }))).toBe("unchecked");
    expect(detailedMergeStatus(facts({ mergeStatus: "checking" }))).toBe("checking");
    expect(detailedMergeStatus(facts({ mergeStatus: "cannot_be_merged_rechecking" }))).toBe("checking");
  });
});

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_status");
});
afterAll(() => t?.close());

describe("mergeStatusFor", () => {
  it("checks an unchecked merge request with repo-service and caches the answer", async () => {
    const p = await repoProject(t);
    await commit(t, p, "ok", { "ok.txt": "ok\n" }, "main");
    await commit(t, p, "clash", { "same.txt": "mine\n" }, "main");
    await commit(t, p, "main", { "same.txt": "theirs\n" });
    const scope = await resolveMergeRequestScope(t.svc.deps, { ...t.admin, system: "", ipAddress: "" }, String(p.id));
    const ok = await mergeRequestRow(t, p, "ok");
    const clash = await mergeRequestRow(t, p, "clash");
    expect(await mergeStatusFor(t.svc.deps, ok, scope)).toMatchObject({
      mergeStatus: "can_be_merged",
      detailedMergeStatus: "mergeable",
      hasConflicts: false,
      canMerge: true,
    });
    expect(await mergeStatusFor(t.svc.deps, clash, scope)).toMatchObject({
      mergeStatus: "cannot_be_merged",
      detailedMergeStatus: "conflict",
      hasConflicts: true,
    });
    const rows = await t.svc.deps.prisma.mergeRequest.findMany({ where: { id: { in: [ok.id, clash.id] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.mergeStatus)).toEqual(["can_be_merged", "cannot_be_merged"]);
  });

  it("computes user.can_merge from the target branch's protection and the caller's level", async () => {
    const p = await repoProject(t);
    await commit(t, p, "f", { "f.txt": "f\n" }, "main");
    const mr = await mergeRequestRow(t, p, "f");
    const [developer, maintainer] = [await t.user(), await t.user()];
    await t.member("project", p.id, developer, AccessLevel.DEVELOPER);
    await t.member("project", p.id, maintainer, AccessLevel.MAINTAINER);
    const canMerge = async (actor: { userId: number; isAdmin: boolean }) =>
      (await mergeStatusFor(t.svc.deps, mr, await resolveMergeRequestScope(t.svc.deps, { ...actor, system: "", ipAddress: "" }, String(p.id)))).canMerge;
    expect(await canMerge(developer)).toBe(false);
    expect(await canMerge(maintainer)).toBe(true);
    expect(await canMerge(t.anonymous)).toBe(false);
    await t.svc.deps.repo.UpdateProtectedBranch({ projectId: p.id, name: "main", mergeAccessLevel: AccessLevel.DEVELOPER });
    expect(await canMerge(developer)).toBe(true);
  });

  it("counts unresolved threads for blocking_discussions_resolved", async () => {
    const p = await repoProject(t);
    await commit(t, p, "d", { "d.txt": "d\n" }, "main");
    const mr = await mergeRequestRow(t, p, "d");
    const scope = await resolveMergeRequestScope(t.svc.deps, { ...t.admin, system: "", ipAddress: "" }, String(p.id));
    expect((await mergeStatusFor(t.svc.deps, mr, scope)).blockingDiscussionsResolved).toBe(true);
    const note = {
      noteableType: "MergeRequest",
      noteableId: mr.id,
      projectId: p.id,
      authorId: t.admin.userId,
      body: "?",
      type: "DiscussionNote",
      discussionId: "d".repeat(40),
    };
    await t.svc.deps.prisma.note.create({ data: note });
    expect((await mergeStatusFor(t.svc.deps, mr, scope)).blockingDiscussionsResolved).toBe(false);
    await t.svc.deps.prisma.note.updateMany({ where: { noteableId: mr.id, noteableType: "MergeRequest" }, data: { resolvedAt: new Date() } });
    expect((await mergeStatusFor(t.svc.deps, mr, scope)).blockingDiscussionsResolved).toBe(true);
  });
});

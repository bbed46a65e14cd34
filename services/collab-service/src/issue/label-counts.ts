import type { Actor__Output } from "@quarry/proto";
import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { CollabDeps } from "../deps.ts";
import type { ResolvedParent } from "../label/parent.ts";
import { relayRefusals } from "../upstream.ts";
import { visibleAcross } from "./access.ts";

/**
 * Label#open_issues_count/closed_issues_count as GitLab's label entity shows them with_counts: the
 * issues carrying the label that the caller can see (IssuesFinder), in the project asked through,
 * or, through a group, in the group's own projects.
 */
export async function withIssueCounts(deps: CollabDeps, actor: Actor__Output | null, parent: ResolvedParent, labels: Label[]): Promise<Label[]> {
  if (!labels.length) return labels;
  let projects: { id: number; level: number }[];
  if (parent.kind === "project") {
    projects = [{ id: parent.id, level: parent.accessLevel }];
  } else {
    const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
    const visible = await relayRefusals(deps.identity.ListVisibleProjects({ actor: a, group: String(parent.id), minAccessLevel: 0 }));
    const own = `${visible.groupFullPath}/`;
    projects = visible.projects
      .filter((p) => p.pathWithNamespace.startsWith(own) && !p.pathWithNamespace.slice(own.length).includes("/"))
      .map((p) => ({ id: Number(p.id), level: p.accessLevel }));
  }
  const rows = await deps.prisma.issueLabel.findMany({
    where: { labelId: { in: labels.map((l) => Number(l.id)) }, issue: visibleAcross(projects, parent.userId, parent.isAdmin) },
    select: { labelId: true, issue: { select: { state: true } } },
  });
  return labels.map((l) => {
    const mine = rows.filter((r) => r.labelId === Number(l.id));
    return {
      ...l,
      openIssuesCount: mine.filter((r) => r.issue.state === "opened").length,
      closedIssuesCount: mine.filter((r) => r.issue.state === "closed").length,
    };
  });
}

import { AccessLevel, isPositiveInt32 } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { CollabDeps } from "../deps.ts";
import type { Issue, Prisma } from "../generated/prisma/client.ts";
import { resolveParent, type ResolvedParent } from "../label/parent.ts";

/** An issue row with what visibility needs (its assignees). */
export type IssueWithAssignees = Issue & { assignees: { userId: number }[] };

/** GitLab's read_confidential_issues: administrators and Reporter+ of the project see every issue. */
export function seesConfidentialIssues(parent: ResolvedParent): boolean {
  return parent.isAdmin || (parent.userId > 0 && parent.accessLevel >= AccessLevel.REPORTER);
}

/**
 * The issues of a project the caller may read (GitLab's IssuesFinder confidentiality filter):
 * everything for Reporter+, otherwise the non-confidential ones and the confidential ones the
 * caller wrote or is assigned to.
 */
export function visibleIssuesWhere(parent: ResolvedParent): Prisma.IssueWhereInput {
  if (seesConfidentialIssues(parent)) return {};
  if (parent.userId <= 0) return { confidential: false };
  return { OR: [{ confidential: false }, { authorId: parent.userId }, { assignees: { some: { userId: parent.userId } } }] };
}

/** Whether the caller may read this issue (IssuePolicy's read_issue for a confidential issue). */
export function canReadIssue(parent: ResolvedParent, issue: IssueWithAssignees): boolean {
  if (!issue.confidential || seesConfidentialIssues(parent)) return true;
  if (parent.userId <= 0) return false;
  return issue.authorId === parent.userId || issue.assignees.some((a) => a.userId === parent.userId);
}

/**
 * Resolves a project for the caller (404 Project Not Found when invisible) and one of its issues
 * by iid; an unknown iid and a confidential issue the caller may not read are both
 * `404 Issue Not Found`, so confidential issues do not leak their existence.
 */
export async function findVisibleIssue(
  deps: CollabDeps,
  actor: Actor__Output | null,
  project: string,
  iid: number,
): Promise<{ parent: ResolvedParent; issue: IssueWithAssignees }> {
  const parent = await resolveParent(deps, actor, { project, group: "" });
  if (!isPositiveInt32(iid)) throw notFound("Issue");
  const issue = await deps.prisma.issue.findUnique({ where: { projectId_iid: { projectId: parent.id, iid } }, include: { assignees: true } });
  if (!issue || !canReadIssue(parent, issue)) throw notFound("Issue");
  return { parent, issue };
}

/**
 * GitLab's IssuesFinder confidentiality across projects: everything where the caller is Reporter+
 * (or an admin), elsewhere the non-confidential issues and the confidential ones they wrote or are
 * assigned to.
 */
export function visibleAcross(projects: { id: number; level: number }[], userId: number, isAdmin: boolean): Prisma.IssueWhereInput {
  const full = projects.filter((p) => isAdmin || (userId > 0 && p.level >= AccessLevel.REPORTER)).map((p) => p.id);
  const partial = projects.filter((p) => !full.includes(p.id)).map((p) => p.id);
  const own: Prisma.IssueWhereInput[] = [{ confidential: false }];
  if (userId > 0) own.push({ authorId: userId }, { assignees: { some: { userId } } });
  const or: Prisma.IssueWhereInput[] = [];
  if (full.length) or.push({ projectId: { in: full } });
  if (partial.length) or.push({ projectId: { in: partial }, OR: own });
  return or.length ? { OR: or } : { id: -1 };
}

import { AccessLevel } from "@quarry/gitlab";
import { forbidden, unauthenticated } from "@quarry/grpc";
import type { CollabDeps, Tx } from "../deps.ts";
import type { Label } from "../generated/prisma/client.ts";
import { availableLabelsWhere, type ResolvedParent } from "../label/parent.ts";
import { castDate } from "../milestone/rules.ts";
import type { IssueWithAssignees } from "./access.ts";

/** GitLab's Label::DEFAULT_COLOR, what Labels::FindOrCreateService gives labels created by name. */
export const DEFAULT_LABEL_COLOR = "#6699cc";

export const ISSUE_TYPES = ["issue", "incident", "test_case", "task"] as const;

export { castDate };

/** create_issue: a signed-in user who can read the project (Guests included). */
export function requireCreateIssue(parent: ResolvedParent): void {
  if (parent.userId <= 0 && !parent.isAdmin) throw unauthenticated();
}

/**
 * `set_issue_metadata` (Reporter+, admins): without it Issues::BaseService#filter_params silently
 * drops labels, milestone, assignees, due date, discussion lock (and confidential on update).
 */
export const canSetMetadata = (parent: ResolvedParent): boolean => parent.isAdmin || (parent.userId > 0 && parent.accessLevel >= AccessLevel.REPORTER);

/**
 * Issues::BaseService#create_issue_type_allowed?: incidents need create_incident (Reporter+);
 * without it the type is dropped (a new issue stays an issue, an update keeps its type).
 */
export const issueTypeAllowed = (parent: ResolvedParent, type: string): boolean => type !== "incident" || canSetMetadata(parent);

/** `set_issue_iid`/`set_issue_created_at`/`set_issue_updated_at`: the project's Owners and admins. */
export const isOwnerOrAdmin = (parent: ResolvedParent): boolean => parent.isAdmin || (parent.userId > 0 && parent.accessLevel >= AccessLevel.OWNER);

/** IssuePolicy's update_issue: Reporter+, the author and the assignees (403 otherwise). */
export function requireUpdateIssue(parent: ResolvedParent, issue: IssueWithAssignees): void {
  if (canSetMetadata(parent)) return;
  if (parent.userId > 0 && (issue.authorId === parent.userId || issue.assignees.some((a) => a.userId === parent.userId))) return;
  throw forbidden();
}

/** Label titles as the API takes them: trimmed, blanks dropped, each once. */
export const cleanLabelTitles = (titles: readonly string[]): string[] => [...new Set(titles.map((t) => t.trim()).filter(Boolean))];

/**
 * Labels::FindOrCreateService as the issues API uses it: each title among the project's available
 * labels (its own and its groups', the nearest group first), a missing one created as a project
 * label with the default colour.
 */
export async function findOrCreateLabels(tx: Tx, parent: ResolvedParent, titles: readonly string[]): Promise<Label[]> {
  const wanted = cleanLabelTitles(titles);
  if (!wanted.length) return [];
  const found = await tx.label.findMany({ where: { AND: [availableLabelsWhere(parent, true), { title: { in: wanted } }] } });
  // Group labels of ancestors are found first (nearest group wins), then the project's own.
  const rank = (l: Label) => (l.groupId !== null ? parent.ancestorGroupIds.indexOf(l.groupId) : parent.ancestorGroupIds.length);
  const byTitle = new Map<string, Label>();
  for (const l of [...found].sort((a, b) => rank(a) - rank(b))) if (!byTitle.has(l.title)) byTitle.set(l.title, l);
  const out: Label[] = [];
  for (const title of wanted) {
    let label = byTitle.get(title);
    if (!label) {
      await tx.$executeRaw`INSERT INTO labels (project_id, title, color, updated_at) VALUES (${parent.id}, ${title}, ${DEFAULT_LABEL_COLOR}, now()) ON CONFLICT DO NOTHING`;
      label = await tx.label.findFirstOrThrow({ where: { projectId: parent.id, title } });
    }
    out.push(label);
  }
  return out;
}

/** Existing available labels by title (remove_labels: unknown titles are ignored). */
export async function findLabels(tx: Tx, parent: ResolvedParent, titles: readonly string[]): Promise<Label[]> {
  const wanted = cleanLabelTitles(titles);
  if (!wanted.length) return [];
  return tx.label.findMany({ where: { AND: [availableLabelsWhere(parent, true), { title: { in: wanted } }] } });
}

/**
 * IssuableBaseService#filter_milestone: a milestone of the project or of its groups; anything else
 * (and 0) means no milestone.
 */
export async function allowedMilestoneId(tx: Tx, parent: ResolvedParent, id: number): Promise<number | null> {
  if (!id || id <= 0 || id > 2_147_483_647) return null;
  const groups = parent.ancestorGroupIds;
  const m = await tx.milestone.findFirst({ where: { id, OR: [{ projectId: parent.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])] } });
  return m ? m.id : null;
}

/**
 * IssuableBaseService#filter_assignees: existing users who can read the project, each once
 * (0 = nobody). Quarry keeps several assignees, as GitLab Premium does.
 */
export async function readableAssignees(deps: CollabDeps, parent: ResolvedParent, ids: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(ids.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647))];
  if (!wanted.length) return [];
  const { users } = await deps.identity.GetUsers({ actor: { userId: 0, isAdmin: true, system: "collab-service" }, ids: wanted });
  const readable = await Promise.all(
    users.map(async (u) => {
      try {
        await deps.identity.Authorize({ actor: { userId: Number(u.id), isAdmin: u.isAdmin, system: "" }, action: "read_project", project: String(parent.id) });
        return Number(u.id);
      } catch {
        return 0;
      }
    }),
  );
  const ok = new Set(readable.filter((id) => id > 0));
  return wanted.filter((id) => ok.has(id));
}

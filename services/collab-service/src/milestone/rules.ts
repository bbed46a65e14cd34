import { isPositiveInt32 } from "@quarry/gitlab";
import { badRequest, ServiceError } from "@quarry/grpc";
import { status } from "@grpc/grpc-js";
import { RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Milestone, Prisma } from "../generated/prisma/client.ts";
import type { ResolvedParent } from "../label/parent.ts";

/** The parent's own milestones (`parent.milestones`). */
export const ownMilestonesWhere = (parent: ResolvedParent): Prisma.MilestoneWhereInput =>
  parent.kind === "project" ? { projectId: parent.id } : { groupId: parent.id };

/** `parent.milestones.find(id)`: ActiveRecord's RecordNotFound, GitLab's `404 Not found`. */
export async function findMilestone(db: PrismaClient | Tx, parent: ResolvedParent, id: number): Promise<Milestone> {
  const m = isPositiveInt32(id) ? await db.milestone.findFirst({ where: { ...ownMilestonesWhere(parent), id } }) : null;
  if (!m) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
  return m;
}

/** A date as Rails casts a String into a date column: YYYY-MM-DD that exists, else no date. */
export function castDate(value: string | undefined | null): Date | null {
  if (!value) return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 ? d : null;
}

/** Ruby's Hash#inspect of ActiveModel error messages (`{:title=>["…"]}`), as GitLab's milestone API words them. */
const inspect = (errors: Record<string, string[]>) =>
  `{${Object.entries(errors)
    .map(([k, v]) => `:${k}=>[${v.map((s) => JSON.stringify(s)).join(", ")}]`)
    .join(", ")}}`;

/**
 * Milestone validations (Timebox and Milestone): title present and not used by the project's or
 * its group's milestones (a group's: its own); due date after start date. `verb` is "create" or
 * "update": `Failed to create milestone {:due_date=>["must be greater than start date"]}`.
 */
export function validateMilestone(
  verb: "create" | "update",
  attrs: { title: string; startDate: Date | null; dueDate: Date | null },
  titleTaken: boolean,
): void {
  const errors: Record<string, string[]> = {};
  if (!attrs.title.trim()) errors.title = ["can't be blank"];
  else if (titleTaken) errors.title = ["already being used for another group or project milestone."];
  if (attrs.startDate && attrs.dueDate && attrs.dueDate.getTime() <= attrs.startDate.getTime()) errors.due_date = ["must be greater than start date"];
  if (Object.keys(errors).length) throw badRequest(`Failed to ${verb} milestone ${inspect(errors)}`);
}

/** Milestones whose title would clash: the project's and its namespace group's, or the group's own. */
export function titleScopeWhere(parent: ResolvedParent): Prisma.MilestoneWhereInput {
  if (parent.kind === "group") return { groupId: parent.id };
  const group = parent.ancestorGroupIds[0];
  return group === undefined ? { projectId: parent.id } : { OR: [{ projectId: parent.id }, { groupId: group }] };
}

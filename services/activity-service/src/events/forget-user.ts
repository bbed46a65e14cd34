// A deleted user's contribution events go with them, hard delete or not: GitLab's events.author_id
// cascades on the user's deletion (audit events stay: they carry the author's name in `details`).
import type { UserContributionsEvent } from "@quarry/bus";
import type { ActivityDeps } from "../deps.ts";

export async function forgetUserEvents(deps: ActivityDeps, e: Pick<UserContributionsEvent, "user_id">): Promise<number> {
  const { count } = await deps.prisma.event.deleteMany({ where: { authorId: Number(e.user_id) } });
  return count;
}

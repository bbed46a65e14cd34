// GitLab's Ghost User (Users::Internal.ghost): the one internal user that keeps what deleted users
// contributed. It is made on first need, like GitLab's, and never signs in (no password, no
// tokens); lists that leave out internal users (exclude_internal, humans) leave it out.
import type { IdentityDeps } from "../deps.ts";
import { insertUser } from "./create-user.ts";

export const GHOST_USER_TYPE = "ghost";
const GHOST_BIO = 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.';

/** The Ghost User's id, creating it (as `ghost`, or `ghost1`, `ghost2`… when taken) on first need. */
export async function ghostUserId(deps: Pick<IdentityDeps, "prisma" | "outbox">): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const existing = await deps.prisma.user.findFirst({ where: { userType: GHOST_USER_TYPE }, orderBy: { id: "asc" }, select: { id: true } });
    if (existing) return existing.id;
    try {
      const created = await deps.prisma.$transaction(async (tx) => {
        let username = "ghost";
        for (let n = 1; await tx.user.findUnique({ where: { usernameLower: username }, select: { id: true } }); n++) username = `ghost${n}`;
        return insertUser(
          tx,
          { username, email: `${username}@noreply.quarry.invalid`, name: "Ghost User", confirmed: true },
          { userType: GHOST_USER_TYPE, bio: GHOST_BIO, canCreateGroup: false, projectsLimit: 0 },
        );
      });
      deps.outbox.kick();
      return created.id;
    } catch (err) {
      // Another deletion made it meanwhile (unique username or e-mail): read it again.
      if (attempt >= 2) throw err;
    }
  }
}

import type { CollabDeps } from "../deps.ts";
import { relayRefusals } from "../upstream.ts";

/** Usernames for the `@user` references of assignee notes, in one GetUsers call (none when no ids). */
export async function usernamesOf(deps: CollabDeps, ids: Iterable<number>): Promise<Map<number, string>> {
  const distinct = [...new Set(ids)].filter((id) => id > 0);
  if (!distinct.length) return new Map();
  const { users } = await relayRefusals(deps.identity.GetUsers({ actor: { userId: 0, isAdmin: true, system: "collab-service" }, ids: distinct }));
  return new Map(users.map((u) => [Number(u.id), u.username]));
}

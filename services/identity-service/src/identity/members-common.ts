import { AccessLevel, MEMBER_ACCESS_LEVELS } from "@quarry/gitlab";
import { forbidden, paramError } from "@quarry/grpc";
import type { MemberSource__Output } from "@quarry/proto/types/identity/v1/MemberSource";
import type { Tx, PrismaClient } from "../deps.ts";
import type { ActorInfo } from "./access.ts";
import { visibleGroup, visibleProject } from "./lookup.ts";

type Db = PrismaClient | Tx;

/** A membership source resolved for the actor: its table key and the actor's level there. */
export interface ResolvedSource {
  sourceType: "project" | "namespace";
  sourceId: number;
  actorLevel: number;
  /** Group ids whose memberships are inherited (ancestors, nearest last), for /members/all. */
  ancestorGroupIds: number[];
  isGroup: boolean;
}

export async function resolveSource(db: Db, actor: ActorInfo, source: MemberSource__Output | null): Promise<ResolvedSource> {
  if (!source?.idOrPath) throw paramError("id is missing");
  if (source.kind === "group") {
    const { group, level } = await visibleGroup(db, actor, source.idOrPath);
    return { sourceType: "namespace", sourceId: group.id, actorLevel: level, ancestorGroupIds: group.traversalIds.slice(0, -1), isGroup: true };
  }
  const { project, levels } = await visibleProject(db, actor, source.idOrPath);
  return {
    sourceType: "project",
    sourceId: project.id,
    actorLevel: levels.effective,
    ancestorGroupIds: project.namespace.kind === "group" ? project.namespace.traversalIds : [],
    isGroup: false,
  };
}

/**
 * Who may change memberships: Maintainers of projects (not granting Owner), Owners of groups,
 * administrators. Mirrors GitLab's admin_project_member / admin_group_member.
 */
export function requireMemberAdmin(actor: ActorInfo, src: ResolvedSource, grantedLevel: number): void {
  if (actor.isAdmin) return;
  const needed = src.isGroup ? AccessLevel.OWNER : AccessLevel.MAINTAINER;
  if (src.actorLevel < needed) throw forbidden();
  if (grantedLevel >= AccessLevel.OWNER && src.actorLevel < AccessLevel.OWNER) throw forbidden();
}

export function validateLevel(level: number): void {
  if (!MEMBER_ACCESS_LEVELS.includes(level)) throw paramError("access_level does not have a valid value");
}

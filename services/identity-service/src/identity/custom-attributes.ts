import { numericRowId, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { notFound, paramError, ServiceError, status } from "@quarry/grpc";
import type { CustomAttribute as CustomAttributeMsg } from "@quarry/proto/types/identity/v1/CustomAttribute";
import type { CustomAttributeRequest__Output } from "@quarry/proto/types/identity/v1/CustomAttributeRequest";
import type { ListCustomAttributesRequest__Output } from "@quarry/proto/types/identity/v1/ListCustomAttributesRequest";
import type { ListCustomAttributesResponse } from "@quarry/proto/types/identity/v1/ListCustomAttributesResponse";
import type { IdentityDeps, PrismaClient } from "../deps.ts";
import type { CustomAttribute, Prisma } from "../generated/prisma/client.ts";
import { actorOf, type ActorInfo } from "./access.ts";
import { requireAdmin, visibleGroup, visibleProject } from "./lookup.ts";

type Owner = { userId: number } | { namespaceId: number } | { projectId: number };

function toProto(a: CustomAttribute): CustomAttributeMsg {
  return { key: a.key, value: a.value, sourceId: a.userId ?? a.namespaceId ?? a.projectId ?? 0 };
}

function column(kind: string): "userId" | "namespaceId" | "projectId" {
  if (kind === "user") return "userId";
  if (kind === "group") return "namespaceId";
  if (kind === "project") return "projectId";
  throw paramError("kind does not have a valid value");
}

/**
 * lib/api/custom_attributes_endpoints.rb's order: the resource first (a user by id or username,
 * `404 Not Found`; a project or group the caller may see, else `404 Project/Group Not Found`),
 * then the administrator check (403).
 */
async function owner(prisma: PrismaClient, actor: ActorInfo, kind: string, id: string): Promise<Owner> {
  if (kind === "user") {
    const userId = numericRowId(id);
    const user =
      userId !== undefined
        ? await prisma.user.findUnique({ where: { id: userId }, select: { id: true } })
        : await prisma.user.findUnique({ where: { usernameLower: id.toLowerCase() }, select: { id: true } });
    if (!user) throw notFound();
    requireAdmin(actor);
    return { userId: user.id };
  }
  if (kind === "group") {
    const { group } = await visibleGroup(prisma, actor, id);
    requireAdmin(actor);
    return { namespaceId: group.id };
  }
  if (kind === "project") {
    const { project } = await visibleProject(prisma, actor, id);
    requireAdmin(actor);
    return { projectId: project.id };
  }
  throw paramError("kind does not have a valid value");
}

function ownerKey(o: Owner, key: string): Prisma.CustomAttributeWhereUniqueInput {
  if ("userId" in o) return { userId_key: { userId: o.userId, key } };
  if ("namespaceId" in o) return { namespaceId_key: { namespaceId: o.namespaceId, key } };
  return { projectId_key: { projectId: o.projectId, key } };
}

/** One resource's attributes (by key), or many resources' at once for `with_custom_attributes` lists. */
export const listCustomAttributes =
  (deps: IdentityDeps) =>
  async (req: ListCustomAttributesRequest__Output): Promise<ListCustomAttributesResponse> => {
    const actor = actorOf(req.actor);
    const col = column(req.kind);
    if (!req.id) {
      requireAdmin(actor);
      const ids = req.ids.map(Number);
      if (!ids.length) return { attributes: [] };
      const rows = await deps.prisma.customAttribute.findMany({ where: { [col]: { in: ids } }, orderBy: [{ [col]: "asc" }, { key: "asc" }] });
      return { attributes: rows.map(toProto) };
    }
    const o = await owner(deps.prisma, actor, req.kind, req.id);
    const rows = await deps.prisma.customAttribute.findMany({ where: o, orderBy: { key: "asc" } });
    return { attributes: rows.map(toProto) };
  };

export const getCustomAttribute =
  (deps: IdentityDeps) =>
  async (req: CustomAttributeRequest__Output): Promise<CustomAttributeMsg> => {
    const o = await owner(deps.prisma, actorOf(req.actor), req.kind, req.id);
    const row = await deps.prisma.customAttribute.findUnique({ where: ownerKey(o, req.key) });
    // find_by! → ActiveRecord::RecordNotFound → GitLab's "404 Not found".
    if (!row) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
    return toProto(row);
  };

/** CustomAttributes::UpsertService: creates or replaces the value. */
export const setCustomAttribute =
  (deps: IdentityDeps) =>
  async (req: CustomAttributeRequest__Output): Promise<CustomAttributeMsg> => {
    const o = await owner(deps.prisma, actorOf(req.actor), req.kind, req.id);
    if (!req.key.trim()) throw paramError("key is empty");
    const row = await deps.prisma.customAttribute.upsert({
      where: ownerKey(o, req.key),
      create: { ...o, key: req.key, value: req.value },
      update: { value: req.value },
    });
    return toProto(row);
  };

export const deleteCustomAttribute =
  (deps: IdentityDeps) =>
  async (req: CustomAttributeRequest__Output): Promise<Record<string, never>> => {
    const o = await owner(deps.prisma, actorOf(req.actor), req.kind, req.id);
    const gone = await deps.prisma.customAttribute.deleteMany({ where: { ...o, key: req.key } });
    if (!gone.count) throw notFound("Custom attribute");
    return {};
  };

// Deploy keys (GitLab's DeployKey and DeployKeysProject, lib/api/deploy_keys.rb): keys of no
// user, enabled per project with or without write access.
import { AccessLevel, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { badRequest, forbidden, notFound, ServiceError, status } from "@quarry/grpc";
import type { CreateDeployKeyRequest__Output } from "@quarry/proto/types/identity/v1/CreateDeployKeyRequest";
import type { DeployKeyRequest__Output } from "@quarry/proto/types/identity/v1/DeployKeyRequest";
import type { ListDeployKeysRequest__Output } from "@quarry/proto/types/identity/v1/ListDeployKeysRequest";
import type { ListDeployKeysResponse } from "@quarry/proto/types/identity/v1/ListDeployKeysResponse";
import type { SshKey as SshKeyMsg } from "@quarry/proto/types/identity/v1/SshKey";
import type { SshKeyProject } from "@quarry/proto/types/identity/v1/SshKeyProject";
import type { UpdateDeployKeyRequest__Output } from "@quarry/proto/types/identity/v1/UpdateDeployKeyRequest";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import type { DeployKeyProject, Key } from "../generated/prisma/client.ts";
import { actorOf, membershipProjectsWhere, type ActorInfo } from "./access.ts";
import type { ProjectRow } from "./convert.ts";
import { requireAdmin, requireLevel, visibleProject } from "./lookup.ts";
import { pageInfo, paging } from "./paging.ts";
import { keyToProto, newKeyColumns, parseExpiry } from "./ssh-keys.ts";

type Db = PrismaClient | Tx;

/** authorize_admin_project: the project visible (404) and the caller a Maintainer (403). */
async function maintainedProject(db: Db, actor: ActorInfo, project: string): Promise<ProjectRow> {
  if (!actor.userId && !actor.system) throw forbidden();
  const { project: row, levels } = await visibleProject(db, actor, project);
  requireLevel(actor, levels.effective, AccessLevel.MAINTAINER);
  return row;
}

const linkToProto = (link: DeployKeyProject & { deployKey: Key }) => keyToProto(link.deployKey, { canPush: link.canPush });

/** The link of a deploy key to a project; GitLab's find_by! → "404 Not found". */
async function findLink(db: Db, projectId: number, keyId: number) {
  const link = await db.deployKeyProject.findFirst({ where: { projectId, deployKeyId: keyId }, include: { deployKey: true } });
  if (!link) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
  return link;
}

/** User#accessible_deploy_keys: deploy keys of the projects the user maintains (administrators: any). */
async function accessibleDeployKey(db: Db, actor: ActorInfo, where: { id: number } | { key: string }) {
  if (actor.isAdmin) return db.key.findFirst({ where: { ...where, type: "DeployKey" } });
  const projects = await membershipProjectsWhere(db, actor.userId, AccessLevel.MAINTAINER);
  return db.key.findFirst({ where: { ...where, type: "DeployKey", projects: { some: { project: projects } } } });
}

export const listDeployKeys =
  (deps: IdentityDeps) =>
  async (req: ListDeployKeysRequest__Output): Promise<ListDeployKeysResponse> => {
    const actor = actorOf(req.actor);
    const p = paging(req.page);
    if (!req.project) {
      // GET /deploy_keys: every deploy key, with the projects it may push to or only read.
      requireAdmin(actor);
      const where = { type: "DeployKey" };
      const [total, keys] = await Promise.all([
        deps.prisma.key.count({ where }),
        deps.prisma.key.findMany({
          where,
          orderBy: { id: "asc" },
          skip: p.skip,
          take: p.take,
          include: { projects: { orderBy: { id: "asc" }, include: { project: { include: { namespace: true } } } } },
        }),
      ]);
      const identity = (l: (typeof keys)[number]["projects"][number]): SshKeyProject => ({
        id: l.project.id,
        description: l.project.description,
        name: l.project.name,
        nameWithNamespace: `${l.project.namespace.name} / ${l.project.name}`,
        path: l.project.path,
        pathWithNamespace: `${l.project.namespace.fullPath}/${l.project.path}`,
        createdAt: l.project.createdAt.toISOString(),
      });
      return {
        keys: keys.map((k) =>
          keyToProto(k, {
            projectsWithWriteAccess: k.projects.filter((l) => l.canPush).map(identity),
            projectsWithReadonlyAccess: k.projects.filter((l) => !l.canPush).map(identity),
          }),
        ),
        pageInfo: pageInfo(total, p),
      };
    }
    const project = await maintainedProject(deps.prisma, actor, req.project);
    const where = { projectId: project.id };
    const [total, links] = await Promise.all([
      deps.prisma.deployKeyProject.count({ where }),
      deps.prisma.deployKeyProject.findMany({ where, orderBy: { id: "asc" }, skip: p.skip, take: p.take, include: { deployKey: true } }),
    ]);
    return { keys: links.map(linkToProto), pageInfo: pageInfo(total, p) };
  };

export const getDeployKey =
  (deps: IdentityDeps) =>
  async (req: DeployKeyRequest__Output): Promise<SshKeyMsg> => {
    const project = await maintainedProject(deps.prisma, actorOf(req.actor), req.project);
    return linkToProto(await findLink(deps.prisma, project.id, Number(req.keyId)));
  };

/** GitLab's nested-attribute errors of a DeployKeysProject: `{"deploy_key.fingerprint_sha256":[…]}`. */
function prefixed(err: unknown): unknown {
  if (err instanceof ServiceError && typeof err.body === "object" && err.body && "message" in err.body) {
    const message = (err.body as { message: unknown }).message;
    if (message && typeof message === "object") {
      return badRequest(Object.fromEntries(Object.entries(message).map(([k, v]) => [`deploy_key.${k}`, v])));
    }
  }
  return err;
}

export const createDeployKey =
  (deps: IdentityDeps) =>
  async (req: CreateDeployKeyRequest__Output): Promise<SshKeyMsg> => {
    const actor = actorOf(req.actor);
    return deps.prisma.$transaction(async (tx) => {
      const project = await maintainedProject(tx, actor, req.project);
      const text = req.key.trim();
      // The same key already in this project: answered as it is.
      const existing = await tx.deployKeyProject.findFirst({ where: { projectId: project.id, deployKey: { key: text } }, include: { deployKey: true } });
      if (existing) return linkToProto(existing);
      // A deploy key of another project the caller maintains: enabled here too.
      const shared = await accessibleDeployKey(tx, actor, { key: text });
      if (shared) {
        const link = await tx.deployKeyProject.create({
          data: { projectId: project.id, deployKeyId: shared.id, canPush: req.canPush },
          include: { deployKey: true },
        });
        return linkToProto(link);
      }
      const columns = await newKeyColumns(tx, { title: req.title, key: text, expiresAt: parseExpiry(req.expiresAt) }).catch((err: unknown) => {
        throw prefixed(err);
      });
      const key = await tx.key.create({ data: { ...columns, type: "DeployKey", createdById: actor.userId || null } });
      const link = await tx.deployKeyProject.create({
        data: { projectId: project.id, deployKeyId: key.id, canPush: req.canPush },
        include: { deployKey: true },
      });
      return linkToProto(link);
    });
  };

/**
 * PUT …/deploy_keys/:key_id: can_push for the project's Maintainers; the title only for whoever
 * may change the key itself (its creator or an administrator; GitLab's update_deploy_key_title),
 * silently kept otherwise.
 */
export const updateDeployKey =
  (deps: IdentityDeps) =>
  async (req: UpdateDeployKeyRequest__Output): Promise<SshKeyMsg> => {
    const actor = actorOf(req.actor);
    return deps.prisma.$transaction(async (tx) => {
      const project = await maintainedProject(tx, actor, req.project);
      const link = await findLink(tx, project.id, Number(req.keyId));
      const mayRetitle = actor.isAdmin || (link.deployKey.createdById !== null && link.deployKey.createdById === actor.userId);
      if (req.title !== undefined && req.title !== null && mayRetitle) {
        const title = req.title;
        if (!title.trim()) throw badRequest({ "deploy_key.title": ["can't be blank"] });
        if (title.length > 255) throw badRequest({ "deploy_key.title": ["is too long (maximum is 255 characters)"] });
        await tx.key.update({ where: { id: link.deployKeyId }, data: { title } });
      }
      const updated = await tx.deployKeyProject.update({
        where: { id: link.id },
        data: req.canPush !== undefined && req.canPush !== null ? { canPush: req.canPush } : {},
        include: { deployKey: true },
      });
      return linkToProto(updated);
    });
  };

/** Projects::EnableDeployKeyService: an accessible deploy key linked (read-only) to the project. */
export const enableDeployKey =
  (deps: IdentityDeps) =>
  async (req: DeployKeyRequest__Output): Promise<SshKeyMsg> => {
    const actor = actorOf(req.actor);
    return deps.prisma.$transaction(async (tx) => {
      const project = await maintainedProject(tx, actor, req.project);
      const key = await accessibleDeployKey(tx, actor, { id: Number(req.keyId) });
      if (!key) throw notFound("Deploy key");
      await tx.deployKeyProject.upsert({
        where: { deployKeyId_projectId: { deployKeyId: key.id, projectId: project.id } },
        create: { deployKeyId: key.id, projectId: project.id },
        update: {},
      });
      return keyToProto(key);
    });
  };

/** Removes the key from the project; a key left in no project is deleted (destroyed_when_orphaned). */
export const deleteDeployKey =
  (deps: IdentityDeps) =>
  async (req: DeployKeyRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    await deps.prisma.$transaction(async (tx) => {
      const project = await maintainedProject(tx, actor, req.project);
      const link = await tx.deployKeyProject.findFirst({ where: { projectId: project.id, deployKeyId: Number(req.keyId) } });
      if (!link) throw notFound("Deploy key");
      await tx.deployKeyProject.delete({ where: { id: link.id } });
      if (!(await tx.deployKeyProject.count({ where: { deployKeyId: link.deployKeyId } }))) {
        await tx.key.delete({ where: { id: link.deployKeyId } });
      }
    });
    return {};
  };

import { AccessLevel, numericRowId, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { badRequest, forbidden, notFound } from "@quarry/grpc";
import type { Project as ProjectMsg } from "@quarry/proto/types/identity/v1/Project";
import type { TransferProjectRequest__Output } from "@quarry/proto/types/identity/v1/TransferProjectRequest";
import type { IdentityDeps, Tx } from "../deps.ts";
import type { Namespace } from "../generated/prisma/client.ts";
import { actorOf, canSee, hasDescendantMembership, namespaceLevel, projectLevels, type ActorInfo } from "./access.ts";
import { projectToProto } from "./convert.ts";
import { CREATION_LEVEL } from "./levels.ts";
import { projectInclude, visibleProject } from "./lookup.ts";
import { enqueueProjectRename } from "./project-events.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** GitLab's Projects::TransferService failures: 400 `Failed to transfer project {:new_namespace=>[…]}`. */
const failed = (why: string) => badRequest(`Failed to transfer project {:new_namespace=>[${JSON.stringify(why)}]}`);

/** GitLab's find_namespace!: a group the caller can read, or a user namespace they own (admins: any); else 404. */
async function targetNamespace(tx: Tx, actor: ActorInfo, idOrPath: string): Promise<{ ns: Namespace; level: number }> {
  const id = numericRowId(idOrPath);
  const ns =
    id !== undefined ? await tx.namespace.findUnique({ where: { id } }) : await tx.namespace.findUnique({ where: { fullPathLower: idOrPath.toLowerCase() } });
  if (!ns) throw notFound("Namespace");
  const level = await namespaceLevel(tx, actor.userId, ns);
  const readable =
    ns.kind === "group"
      ? canSee(actor, ns.visibility, level) || (await hasDescendantMembership(tx, actor.userId, ns.id))
      : actor.isAdmin || (actor.userId > 0 && ns.ownerId === actor.userId);
  if (!readable) throw notFound("Namespace");
  return { ns, level };
}

/**
 * PUT /projects/:id/transfer: Owner of the project (GitLab's change_namespace; 403 otherwise) who
 * may create projects in the target namespace. The project keeps its id, so its hashed repository
 * (and wiki) stay where they are on disk; its path_with_namespace follows the new namespace, its
 * visibility is lowered to a more restricted target group's, and quarry.identity.project_rename
 * (event_name project_transfer) is published for the moved_project mails and system hooks.
 */
export const transferProject =
  (deps: IdentityDeps) =>
  async (req: TransferProjectRequest__Output): Promise<ProjectMsg> => {
    const actor = actorOf(req.actor);
    const out = await deps.prisma.$transaction(
      async (tx) => {
        const { project, levels } = await visibleProject(tx, actor, req.idOrPath);
        if (!actor.isAdmin && levels.effective < AccessLevel.OWNER) throw forbidden();
        const { ns, level } = await targetNamespace(tx, actor, req.namespace);
        if (ns.id === project.namespaceId) throw failed("Project is already in this namespace.");
        const mayCreate =
          actor.isAdmin || (ns.kind === "group" ? level >= (CREATION_LEVEL[ns.projectCreationLevel] ?? AccessLevel.DEVELOPER) : ns.ownerId === actor.userId);
        if (!mayCreate) throw failed("You don't have permission to transfer projects into that namespace.");
        const clash = await tx.project.findFirst({ where: { namespaceId: ns.id, pathLower: project.pathLower }, select: { id: true } });
        if (clash) throw failed("Project with same path in target namespace already exists");
        // A project may not be more open than its group (GitLab's visibility_level_allowed_by_group?).
        const visibility = ns.kind === "group" && VISIBILITY_LEVEL[project.visibility]! > VISIBILITY_LEVEL[ns.visibility]! ? ns.visibility : project.visibility;
        const row = await tx.project.update({ where: { id: project.id }, data: { namespaceId: ns.id, visibility }, include: projectInclude });
        await enqueueProjectRename(tx, row, `${project.namespace.fullPath}/${project.path}`, "project_transfer", actor);
        await enqueueAccessChange(tx, { project_ids: [project.id] });
        return { row, levels: await projectLevels(tx, actor.userId, row) };
      },
      { timeout: 30_000 },
    );
    deps.outbox.kick();
    return projectToProto(out.row, out.levels);
  };

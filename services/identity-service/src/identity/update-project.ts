import { AccessLevel, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { badRequest, forbidden } from "@quarry/grpc";
import type { Project as ProjectMsg } from "@quarry/proto/types/identity/v1/Project";
import type { UpdateProjectRequest__Output } from "@quarry/proto/types/identity/v1/UpdateProjectRequest";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { checkAvatar, withAvatarWrites } from "./avatars.ts";
import { diskPathFor, projectToProto } from "./convert.ts";
import { mergeSettingsData } from "./merge-settings.ts";
import { projectInclude, requireLevel, visibleProject } from "./lookup.ts";
import { enqueueProjectRename } from "./project-events.ts";
import { validateName, validatePath, validateVisibility } from "./validate.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** Maintainer or above; visibility and path changes need Owner, as in GitLab. */
export const updateProject =
  (deps: IdentityDeps) =>
  async (req: UpdateProjectRequest__Output): Promise<ProjectMsg> => {
    const actor = actorOf(req.actor);
    const result = await withAvatarWrites(deps.avatars, (avatars) =>
      deps.prisma.$transaction(
        async (tx) => {
          const { project, levels } = await visibleProject(tx, actor, req.idOrPath);
          requireLevel(actor, levels.effective, AccessLevel.MAINTAINER);
          const avatar = checkAvatar(req.avatar);
          const data: Prisma.ProjectUpdateInput = mergeSettingsData(req.mergeSettings);
          if (req.description !== undefined) data.description = req.description;
          if (req.archived !== undefined) data.archived = req.archived;
          if (req.requestAccessEnabled !== undefined) data.requestAccessEnabled = req.requestAccessEnabled;
          if (req.enforceAuthChecksOnUploads !== undefined) data.enforceAuthChecksOnUploads = req.enforceAuthChecksOnUploads;
          if (req.ciConfigPath !== undefined) data.ciConfigPath = req.ciConfigPath;
          if (req.topicsSet) data.topics = req.topics;
          if (req.name !== undefined && req.name !== project.name) {
            validateName(req.name);
            const clash = await tx.project.findFirst({ where: { namespaceId: project.namespaceId, name: req.name, NOT: { id: project.id } } });
            if (clash) throw badRequest({ name: ["has already been taken"] });
            data.name = req.name;
          }
          if (req.path !== undefined && req.path !== project.path) {
            if (!actor.isAdmin && levels.effective < AccessLevel.OWNER) throw forbidden();
            validatePath(req.path);
            const clash = await tx.project.findFirst({
              where: { namespaceId: project.namespaceId, pathLower: req.path.toLowerCase(), NOT: { id: project.id } },
            });
            if (clash) throw badRequest({ path: ["has already been taken"] });
            data.path = req.path;
            data.pathLower = req.path.toLowerCase();
          }
          if (req.visibility !== undefined && req.visibility !== project.visibility) {
            if (!actor.isAdmin && levels.effective < AccessLevel.OWNER) throw forbidden();
            validateVisibility(req.visibility);
            if (project.namespace.kind === "group" && VISIBILITY_LEVEL[req.visibility]! > VISIBILITY_LEVEL[project.namespace.visibility]!) {
              throw badRequest({ visibility_level: [`${req.visibility} is not allowed in a ${project.namespace.visibility} group.`] });
            }
            data.visibility = req.visibility;
          }
          if (req.defaultBranch !== undefined && req.defaultBranch !== project.defaultBranch) {
            // HEAD must name an existing branch once the repository has commits.
            try {
              await deps.repo.SetDefaultBranch({ diskPath: diskPathFor(project.id), branch: req.defaultBranch, mustExist: true });
            } catch (err) {
              if ((err as { code?: number }).code === 5 || (err as { code?: number }).code === 3) {
                throw badRequest({ base: [`Could not change HEAD: branch '${req.defaultBranch}' does not exist`] });
              }
              throw err;
            }
            data.defaultBranch = req.defaultBranch;
          }
          if (avatar) Object.assign(data, await avatars.stage("project", project.id, avatar, project.avatarKey));
          const row = await tx.project.update({ where: { id: project.id }, data, include: projectInclude });
          const renamed = row.path !== project.path;
          await enqueueAccessChange(tx, { project_ids: [project.id] });
          if (renamed) await enqueueProjectRename(tx, row, `${project.namespace.fullPath}/${project.path}`, "project_rename", actor);
          return { row, levels, renamed };
        },
        { timeout: 30_000 },
      ),
    );
    deps.outbox.kick();
    return projectToProto(result.row, result.levels);
  };

import { AccessLevel, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { badRequest, forbidden, notFound, paramError, ServiceError, status } from "@quarry/grpc";
import type { CreateProjectRequest__Output } from "@quarry/proto/types/identity/v1/CreateProjectRequest";
import type { Project as ProjectMsg } from "@quarry/proto/types/identity/v1/Project";
import type { IdentityDeps } from "../deps.ts";
import type { Namespace } from "../generated/prisma/client.ts";
import { readApplicationSettings } from "./application-settings.ts";
import { actorOf, namespaceLevel } from "./access.ts";
import { checkAvatar, withAvatarWrites } from "./avatars.ts";
import { diskPathFor, projectToProto } from "./convert.ts";
import { CREATION_LEVEL } from "./levels.ts";
import { mergeSettingsData } from "./merge-settings.ts";
import { projectInclude, visibleGroup } from "./lookup.ts";
import { enqueueProjectCreate } from "./project-events.ts";
import { pathFromName, validateName, validatePath, validateVisibility } from "./validate.ts";

const BRANCH_RE = /^(?!\/|.*(?:\/\.|\/\/|@\{|\\|\.\.))[^\x00-\x20~^:?*[\x7f]+(?<!\.lock|\/|\.)$/;

/**
 * Creates the project row and, in the same transaction, asks repo-service for the repository:
 * if the repository cannot be made, no project is left behind (and vice versa).
 */
export const createProject =
  (deps: IdentityDeps) =>
  async (req: CreateProjectRequest__Output): Promise<ProjectMsg> => {
    const actor = actorOf(req.actor);
    if (!actor.userId) throw forbidden();
    if (!req.name && !req.path) throw paramError("name, path are missing, at least one parameter must be provided");
    const path = req.path || pathFromName(req.name);
    const name = req.name || req.path;
    validateName(name);
    validatePath(path);
    const settings = await readApplicationSettings(deps.prisma);
    // Without an explicit visibility: the instance default, narrowed to what the group allows.
    let visibility = req.visibility || settings.default_project_visibility;
    validateVisibility(visibility);
    if (req.defaultBranch && !BRANCH_RE.test(req.defaultBranch)) throw paramError("default_branch does not have a valid value");
    const ownerUserId = Number(req.ownerUserId) || 0;
    if (ownerUserId && !actor.isAdmin) throw forbidden();
    const mergeSettings = mergeSettingsData(req.mergeSettings);

    const project = await withAvatarWrites(deps.avatars, (avatars) =>
      deps.prisma.$transaction(
        async (tx) => {
          const namespaceId = Number(req.namespaceId) || 0;
          let namespace: Namespace | null;
          if (namespaceId) {
            namespace = await tx.namespace.findUnique({ where: { id: namespaceId } });
            if (!namespace) throw notFound("Namespace");
            if (namespace.kind === "group") {
              const { level } = await visibleGroup(tx, actor, String(namespace.id));
              const needed = CREATION_LEVEL[namespace.projectCreationLevel] ?? AccessLevel.DEVELOPER;
              if (!actor.isAdmin && level < needed) throw forbidden();
              if (!req.visibility && VISIBILITY_LEVEL[visibility]! > VISIBILITY_LEVEL[namespace.visibility]!) visibility = namespace.visibility;
              if (VISIBILITY_LEVEL[visibility]! > VISIBILITY_LEVEL[namespace.visibility]!) {
                throw badRequest({ visibility_level: [`${visibility} is not allowed in a ${namespace.visibility} group.`] });
              }
            } else if (namespace.ownerId !== actor.userId && !actor.isAdmin) {
              throw forbidden();
            }
          } else {
            const owner = ownerUserId || actor.userId;
            namespace = await tx.namespace.findUnique({ where: { ownerId: owner } });
            if (!namespace) throw notFound("User");
          }
          // After the permission checks, before any write (GitLab validates the record it may create).
          const avatar = checkAvatar(req.avatar);
          const clash = await tx.project.findFirst({
            where: { namespaceId: namespace.id, OR: [{ pathLower: path.toLowerCase() }, { name }] },
            select: { name: true, pathLower: true },
          });
          if (clash) {
            const message: Record<string, string[]> = {};
            if (clash.name === name) message.name = ["has already been taken"];
            if (clash.pathLower === path.toLowerCase()) message.path = ["has already been taken"];
            throw badRequest(message);
          }
          const creatorId = ownerUserId || actor.userId;
          let created = await tx.project.create({
            data: {
              namespaceId: namespace.id,
              name,
              path,
              pathLower: path.toLowerCase(),
              description: req.description,
              visibility,
              defaultBranch: req.defaultBranch || namespace.defaultBranch || settings.default_branch_name || "main",
              creatorId,
              topics: req.topics,
              requestAccessEnabled: req.requestAccessEnabled ?? true,
              ciConfigPath: req.ciConfigPath,
              ...mergeSettings,
            },
            include: projectInclude,
          });
          // A personal project's owner is its Owner member, as in GitLab.
          if (namespace.kind === "user" && namespace.ownerId) {
            await tx.member.create({
              data: { sourceType: "project", sourceId: created.id, userId: namespace.ownerId, accessLevel: AccessLevel.OWNER, createdById: actor.userId },
            });
          }
          if (avatar && !avatar.remove) {
            created = await tx.project.update({
              where: { id: created.id },
              data: await avatars.stage("project", created.id, avatar, null),
              include: projectInclude,
            });
          }
          await enqueueProjectCreate(tx, created, actor);
          const author = await tx.user.findUniqueOrThrow({ where: { id: creatorId }, select: { name: true, email: true } });
          try {
            const repository = await deps.repo.CreateRepository({
              projectId: created.id,
              diskPath: diskPathFor(created.id),
              defaultBranch: created.defaultBranch,
              initializeWithReadme: req.initializeWithReadme,
              author: { name: author.name, email: author.email },
              projectName: created.name,
              projectDescription: created.description,
            });
            // A README commit is the first push GitLab measures; an empty repository stays at 0 until one.
            if (repository.headCommitId) {
              await tx.projectStatistics.create({
                data: {
                  projectId: created.id,
                  repositorySize: BigInt(repository.repositorySize),
                  commitCount: BigInt(repository.commitCount),
                  repositoryMeasuredAt: new Date(),
                },
              });
            }
          } catch (err) {
            deps.log.error({ err, projectId: created.id }, "repository creation failed");
            // repo-service unreachable → 503; anything else it reported → 500.
            const unavailable = (err as { code?: number }).code === status.UNAVAILABLE;
            throw new ServiceError(unavailable ? status.UNAVAILABLE : status.INTERNAL, { message: "Failed to create repository" }, unavailable ? 503 : 500);
          }
          return created;
        },
        { timeout: 60_000, maxWait: 10_000 },
      ),
    );
    deps.outbox.kick();
    const groupLevel = project.namespace.kind === "group" ? await namespaceLevel(deps.prisma, actor.userId, project.namespace) : 0;
    const projectLevel = project.namespace.ownerId === actor.userId ? AccessLevel.OWNER : 0;
    return projectToProto(project, { projectLevel, groupLevel });
  };

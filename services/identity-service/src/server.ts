import type { EventBus } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createClient, createGrpcServer, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { identityV1, repoV1, type IdentityServiceDefinition } from "@quarry/proto";
import { createPrisma } from "./db.ts";
import type { IdentityDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { addMember } from "./identity/add-member.ts";
import { authenticate } from "./identity/authenticate.ts";
import { authorize } from "./identity/authorize.ts";
import { getGroupAncestors } from "./identity/get-group-ancestors.ts";
import { getUsers } from "./identity/get-users.ts";
import { logSystemActors } from "./identity/system-actor.ts";
import { createGroup } from "./identity/create-group.ts";
import { createPersonalAccessToken } from "./identity/create-personal-access-token.ts";
import { createProject } from "./identity/create-project.ts";
import { createUser } from "./identity/create-user.ts";
import { deleteGroup } from "./identity/delete-group.ts";
import { deleteProject } from "./identity/delete-project.ts";
import { deleteUser } from "./identity/delete-user.ts";
import { ensureRootUser } from "./identity/ensure-root-user.ts";
import { getGroup } from "./identity/get-group.ts";
import { getMember } from "./identity/get-member.ts";
import { getPersonalAccessToken } from "./identity/get-personal-access-token.ts";
import { getProject } from "./identity/get-project.ts";
import { getUser } from "./identity/get-user.ts";
import { listGroups } from "./identity/list-groups.ts";
import { listMembers } from "./identity/list-members.ts";
import { listPersonalAccessTokens } from "./identity/list-personal-access-tokens.ts";
import { listProjects } from "./identity/list-projects.ts";
import { listUsers } from "./identity/list-users.ts";
import { OutboxRelay } from "@quarry/bus";
import { removeMember } from "./identity/remove-member.ts";
import { revokePersonalAccessToken } from "./identity/revoke-personal-access-token.ts";
import { updateGroup } from "./identity/update-group.ts";
import { updateMember } from "./identity/update-member.ts";
import { updateProject } from "./identity/update-project.ts";
import { updateUser } from "./identity/update-user.ts";

export function identityHandlers(deps: IdentityDeps): AsyncHandlers<IdentityServiceDefinition> {
  return {
    Authenticate: authenticate(deps),
    EnsureRootUser: ensureRootUser(deps),
    CreateUser: createUser(deps),
    GetUser: getUser(deps),
    ListUsers: listUsers(deps),
    UpdateUser: updateUser(deps),
    DeleteUser: deleteUser(deps),
    CreatePersonalAccessToken: createPersonalAccessToken(deps),
    ListPersonalAccessTokens: listPersonalAccessTokens(deps),
    GetPersonalAccessToken: getPersonalAccessToken(deps),
    RevokePersonalAccessToken: revokePersonalAccessToken(deps),
    CreateGroup: createGroup(deps),
    GetGroup: getGroup(deps),
    ListGroups: listGroups(deps),
    UpdateGroup: updateGroup(deps),
    DeleteGroup: deleteGroup(deps),
    CreateProject: createProject(deps),
    GetProject: getProject(deps),
    ListProjects: listProjects(deps),
    UpdateProject: updateProject(deps),
    DeleteProject: deleteProject(deps),
    ListMembers: listMembers(deps),
    GetMember: getMember(deps),
    AddMember: addMember(deps),
    UpdateMember: updateMember(deps),
    RemoveMember: removeMember(deps),
    Authorize: authorize(deps),
    GetGroupAncestors: getGroupAncestors(deps),
    GetUsers: getUsers(deps),
  };
}

export interface IdentityServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  repoServiceAddress: string;
  deadlineMs: number;
  bus: EventBus;
  log: Logger;
  rootEmail: string;
  rootPassword?: string;
}

export interface RunningIdentityService {
  address: string;
  deps: IdentityDeps;
  /** Creates root on a new instance; returns the clear token when one was generated (shown once). */
  ensureRoot(presetToken?: string): Promise<{ created: boolean; token: string }>;
  stop(): Promise<void>;
}

/** Applies migrations, wires dependencies and serves IdentityService on `grpcAddress`. */
export async function startIdentityService(o: IdentityServiceOptions): Promise<RunningIdentityService> {
  await applyMigrations(o.databaseUrl, migrations, { log: (m) => o.log.info(m) });
  const prisma = createPrisma(o.databaseUrl);
  const repo = createClient(repoV1.RepoService, o.repoServiceAddress, { deadlineMs: Math.max(o.deadlineMs, 30_000) });
  const outbox = new OutboxRelay(prisma, o.bus, o.log);
  const deps: IdentityDeps = { prisma, repo, outbox, log: o.log, config: { rootEmail: o.rootEmail, rootPassword: o.rootPassword } };
  const server = createGrpcServer(o.log);
  // Readiness (the gateway's /-/readiness) asks this service's health: it serves only with its database.
  server.addDependencyCheck("database", () => prisma.$queryRaw`SELECT 1`);
  server.addService("quarry.identity.v1.IdentityService", identityV1.IdentityService.service, logSystemActors(identityHandlers(deps)));
  const address = await server.listen(o.grpcAddress);
  outbox.start();
  o.log.info({ address }, "identity-service listening");
  return {
    address,
    deps,
    async ensureRoot(presetToken = "") {
      const { created, token } = await ensureRootUser(deps)({ presetToken });
      return { created: Boolean(created), token: token ?? "" };
    },
    async stop() {
      await server.stop();
      await outbox.stop();
      repo.close();
      await prisma.$disconnect();
    },
  };
}

import type { EventBus } from "@quarry/bus";
import { createClient, type AsyncHandlers, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { ObjectStore } from "@quarry/object-store";
import { identityV1, repoV1, type IdentityServiceDefinition } from "@quarry/proto";
import { startService } from "@quarry/service";
import type { IdentityDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { addMember } from "./identity/add-member.ts";
import { authenticate } from "./identity/authenticate.ts";
import { authorize } from "./identity/authorize.ts";
import { getGroupAncestors } from "./identity/get-group-ancestors.ts";
import { getUsers } from "./identity/get-users.ts";
import { listVisibleProjects } from "./identity/list-visible-projects.ts";
import { logSystemActors } from "./identity/system-actor.ts";
import { createGroup } from "./identity/create-group.ts";
import { createPersonalAccessToken } from "./identity/create-personal-access-token.ts";
import { createProject } from "./identity/create-project.ts";
import { transferGroup } from "./identity/transfer-group.ts";
import { transferProject } from "./identity/transfer-project.ts";
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
import { getAvatar } from "./identity/get-avatar.ts";
import { listGroups } from "./identity/list-groups.ts";
import { listMembers } from "./identity/list-members.ts";
import { listPersonalAccessTokens } from "./identity/list-personal-access-tokens.ts";
import { listProjects } from "./identity/list-projects.ts";
import { listUsers } from "./identity/list-users.ts";
import { removeMember } from "./identity/remove-member.ts";
import { revokePersonalAccessToken } from "./identity/revoke-personal-access-token.ts";
import { updateGroup } from "./identity/update-group.ts";
import { updateMember } from "./identity/update-member.ts";
import { updateProject } from "./identity/update-project.ts";
import { updateUser } from "./identity/update-user.ts";
import { getNotificationSetting } from "./identity/get-notification-setting.ts";
import { listStarrers } from "./identity/list-starrers.ts";
import { resolveNotificationSettings } from "./identity/resolve-notification-settings.ts";
import { starProject } from "./identity/star-project.ts";
import { unstarProject } from "./identity/unstar-project.ts";
import { updateNotificationSetting } from "./identity/update-notification-setting.ts";
// ---------- uploads
import { createUpload } from "./identity/create-upload.ts";
import { deleteUpload } from "./identity/delete-upload.ts";
import { changeUserState } from "./identity/change-user-state.ts";
import { listUserMemberships } from "./identity/list-user-memberships.ts";
import { deleteCustomAttribute, getCustomAttribute, listCustomAttributes, setCustomAttribute } from "./identity/custom-attributes.ts";
import { getUploadFile } from "./identity/get-upload-file.ts";
import { listUploads } from "./identity/list-uploads.ts";
import { subscribeToStatistics } from "./identity/project-statistics.ts";
// ---------- SSH keys and deploy keys
import { createSshKey, deleteSshKey, findSshKey, getSshKey, listSshKeys } from "./identity/ssh-keys.ts";
import { authorizeSshKey } from "./identity/authorize-ssh-key.ts";
import { createGroupSshCertificate, deleteGroupSshCertificate, listGroupSshCertificates } from "./identity/group-ssh-certificates.ts";
import { createDeployKey, deleteDeployKey, enableDeployKey, getDeployKey, listDeployKeys, updateDeployKey } from "./identity/deploy-keys.ts";
import { confirmEmail, createEmail, deleteEmail, getEmail, listEmails } from "./identity/emails.ts";
import { disableOwnTwoFactor, disableTwoFactor, OTP_SECRET_CONTEXT, regenerateRecoveryCodes, startTwoFactor, verifyTwoFactor } from "./identity/two-factor.ts";
import { getApplicationSettings, updateApplicationSettings } from "./identity/application-settings.ts";
import {
  createServiceAccount,
  createServiceAccountToken,
  deleteServiceAccount,
  listServiceAccounts,
  listServiceAccountTokens,
  revokeServiceAccountToken,
  updateServiceAccount,
} from "./identity/service-accounts.ts";
// ---------- deploy tokens
import { createDeployToken, deleteDeployToken, getDeployToken, listDeployTokens } from "./identity/deploy-tokens.ts";
import { authenticateDeployToken } from "./identity/deploy-tokens-authenticate.ts";
// ---------- GPG keys and signature verification
import { createGpgKey, deleteGpgKey, getGpgKey, listGpgKeys } from "./identity/gpg-keys.ts";
import { verifySignature } from "./identity/verify-signature.ts";
// ---------- enterprise users and verified domains
import { createSecretBox } from "@quarry/secret-box";
import { deleteEnterpriseUser, disableEnterpriseUserTwoFactor, getEnterpriseUser, listEnterpriseUsers } from "./identity/enterprise-users.ts";
import { listUserActivities } from "./identity/list-user-activities.ts";
import { createVerifiedDomain, deleteVerifiedDomain, listVerifiedDomains, verifyVerifiedDomain } from "./identity/verified-domains.ts";

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
    GetAvatar: getAvatar(deps),
    GetGroupAncestors: getGroupAncestors(deps),
    GetUsers: getUsers(deps),
    ListVisibleProjects: listVisibleProjects(deps),
    // ---------- starring
    StarProject: starProject(deps),
    UnstarProject: unstarProject(deps),
    ListStarrers: listStarrers(deps),
    // ---------- notification settings
    GetNotificationSetting: getNotificationSetting(deps),
    UpdateNotificationSetting: updateNotificationSetting(deps),
    ResolveNotificationSettings: resolveNotificationSettings(deps),
    // ---------- uploads
    CreateUpload: createUpload(deps),
    ListUploads: listUploads(deps),
    GetUploadFile: getUploadFile(deps),
    DeleteUpload: deleteUpload(deps),
    ChangeUserState: changeUserState(deps),
    ListUserMemberships: listUserMemberships(deps),
    ListCustomAttributes: listCustomAttributes(deps),
    GetCustomAttribute: getCustomAttribute(deps),
    SetCustomAttribute: setCustomAttribute(deps),
    DeleteCustomAttribute: deleteCustomAttribute(deps),
    // SSH keys and deploy keys.
    ListSshKeys: listSshKeys(deps),
    GetSshKey: getSshKey(deps),
    CreateSshKey: createSshKey(deps),
    DeleteSshKey: deleteSshKey(deps),
    FindSshKey: findSshKey(deps),
    ListDeployKeys: listDeployKeys(deps),
    GetDeployKey: getDeployKey(deps),
    CreateDeployKey: createDeployKey(deps),
    UpdateDeployKey: updateDeployKey(deps),
    EnableDeployKey: enableDeployKey(deps),
    DeleteDeployKey: deleteDeployKey(deps),
    AuthorizeSshKey: authorizeSshKey(deps),
    ListGroupSshCertificates: listGroupSshCertificates(deps),
    CreateGroupSshCertificate: createGroupSshCertificate(deps),
    DeleteGroupSshCertificate: deleteGroupSshCertificate(deps),
    // ---------- service accounts
    CreateServiceAccount: createServiceAccount(deps),
    ListServiceAccounts: listServiceAccounts(deps),
    UpdateServiceAccount: updateServiceAccount(deps),
    DeleteServiceAccount: deleteServiceAccount(deps),
    CreateServiceAccountToken: createServiceAccountToken(deps),
    ListServiceAccountTokens: listServiceAccountTokens(deps),
    RevokeServiceAccountToken: revokeServiceAccountToken(deps),
    // ---------- e-mail addresses
    ListEmails: listEmails(deps),
    GetEmail: getEmail(deps),
    CreateEmail: createEmail(deps),
    DeleteEmail: deleteEmail(deps),
    ConfirmEmail: confirmEmail(deps),
    TransferGroup: transferGroup(deps),
    TransferProject: transferProject(deps),
    StartTwoFactor: startTwoFactor(deps),
    VerifyTwoFactor: verifyTwoFactor(deps),
    DisableOwnTwoFactor: disableOwnTwoFactor(deps),
    DisableTwoFactor: disableTwoFactor(deps),
    // ---------- deploy tokens
    ListDeployTokens: listDeployTokens(deps),
    GetDeployToken: getDeployToken(deps),
    CreateDeployToken: createDeployToken(deps),
    DeleteDeployToken: deleteDeployToken(deps),
    AuthenticateDeployToken: authenticateDeployToken(deps),
    // ---------- GPG keys and signature verification
    ListGpgKeys: listGpgKeys(deps),
    GetGpgKey: getGpgKey(deps),
    CreateGpgKey: createGpgKey(deps),
    DeleteGpgKey: deleteGpgKey(deps),
    VerifySignature: verifySignature(deps),
    // ---------- enterprise users, verified domains, recovery codes
    ListEnterpriseUsers: listEnterpriseUsers(deps),
    GetEnterpriseUser: getEnterpriseUser(deps),
    DeleteEnterpriseUser: deleteEnterpriseUser(deps),
    DisableEnterpriseUserTwoFactor: disableEnterpriseUserTwoFactor(deps),
    ListVerifiedDomains: listVerifiedDomains(deps),
    CreateVerifiedDomain: createVerifiedDomain(deps),
    DeleteVerifiedDomain: deleteVerifiedDomain(deps),
    VerifyVerifiedDomain: verifyVerifiedDomain(deps),
    RegenerateRecoveryCodes: regenerateRecoveryCodes(deps),
    GetApplicationSettings: getApplicationSettings(deps),
    UpdateApplicationSettings: updateApplicationSettings(deps),
    ListUserActivities: listUserActivities(deps),
  };
}

export interface IdentityServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  repoServiceAddress: string;
  deadlineMs: number;
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  rootEmail: string;
  rootPassword?: string;
  /** Where avatar images go (ensureBucket is called at start). */
  avatarStore: ObjectStore;
  /** Seals two-factor secrets (QUARRY_IDENTITY_ENCRYPTION_KEY; at least 32 characters). */
  encryptionKey: string;
  /** DNS servers for verified-domain look-ups ("host" or "host:port"); absent or empty = the system's. */
  dnsServers?: string[];
}

export interface RunningIdentityService {
  address: string;
  deps: IdentityDeps;
  /** Creates root on a new instance; returns the clear token when one was generated (shown once). */
  ensureRoot(presetToken?: string): Promise<{ created: boolean; token: string }>;
  stop(): Promise<void>;
}

/** Starts identity-service on the shared skeleton (packages/service) and serves IdentityService on `grpcAddress`. */
export async function startIdentityService(o: IdentityServiceOptions): Promise<RunningIdentityService> {
  const service = await startService({
    name: "identity-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    // The avatar bucket exists before any call can store an image.
    prepare: () => o.avatarStore.ensureBucket(),
    deps({ prisma, outbox, onStop }): IdentityDeps {
      const repo = createClient(repoV1.RepoService, o.repoServiceAddress, { deadlineMs: Math.max(o.deadlineMs, 30_000) });
      onStop(() => repo.close());
      return {
        prisma,
        repo,
        outbox: outbox(),
        avatars: o.avatarStore,
        log: o.log,
        config: { rootEmail: o.rootEmail, rootPassword: o.rootPassword },
        otpBox: createSecretBox(o.encryptionKey, OTP_SECRET_CONTEXT),
        dnsServers: o.dnsServers ?? [],
      };
    },
    handlers(server, deps) {
      server.addService("quarry.identity.v1.IdentityService", identityV1.IdentityService.service, logSystemActors(identityHandlers(deps)));
    },
    // Storage statistics measured by repo-service and ci-service.
    subscribe: (deps) => subscribeToStatistics(deps, o.bus),
  });
  const { deps } = service;
  return {
    address: service.address,
    deps,
    async ensureRoot(presetToken = "") {
      const { created, token } = await ensureRootUser(deps)({ presetToken });
      return { created: Boolean(created), token: token ?? "" };
    },
    stop: service.stop,
  };
}

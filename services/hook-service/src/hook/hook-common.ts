// Shared by the hook RPCs: event switches, the owner check, secrets and the Hook message.
import { isPositiveInt32 } from "@quarry/gitlab";
import { notFound, paramError } from "@quarry/grpc";
import type { Hook } from "@quarry/proto/types/hook/v1/Hook";
import type { HookOwner__Output as HookOwner } from "@quarry/proto/types/hook/v1/HookOwner";
import { maskedUrl, type UrlCredentials } from "./url-credentials.ts";
import type { HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";

/** Event switches every hook has (column name = camelCase of the GitLab name). */
export const PROJECT_SWITCHES = [
  "pushEvents",
  "tagPushEvents",
  "mergeRequestsEvents",
  "repositoryUpdateEvents",
  "issuesEvents",
  "confidentialIssuesEvents",
  "noteEvents",
  "confidentialNoteEvents",
  "pipelineEvents",
  "wikiPageEvents",
  "jobEvents",
  "deploymentEvents",
  "featureFlagEvents",
  "releasesEvents",
  "milestoneEvents",
  "resourceAccessTokenEvents",
  // Project hooks too since GitLab 16.x (Entities::ProjectHook exposes it).
  "emojiEvents",
] as const;

/** Switches only group hooks have. */
export const GROUP_SWITCHES = ["subgroupEvents", "memberEvents", "projectEvents"] as const;

export type SwitchName = (typeof PROJECT_SWITCHES)[number] | (typeof GROUP_SWITCHES)[number];

/** What is sealed in web_hooks.encrypted_secrets. */
export interface HookSecrets {
  token: string | null;
  /** Custom header values by name. */
  headers: Record<string, string>;
  /** URL variable values by key. */
  variables: Record<string, string>;
  /** User name and password typed into the URL (the stored URL has none). Absent in older rows. */
  credentials?: UrlCredentials | null;
}

export const EMPTY_SECRETS: HookSecrets = { token: null, headers: {}, variables: {} };

export function openSecrets(deps: Pick<HookDeps, "box">, hook: Pick<WebHook, "encryptedSecrets">): HookSecrets {
  if (!hook.encryptedSecrets) return { ...EMPTY_SECRETS, headers: {}, variables: {} };
  return { ...EMPTY_SECRETS, ...deps.box.openJson<HookSecrets>(hook.encryptedSecrets) };
}

export function sealSecrets(deps: Pick<HookDeps, "box">, s: HookSecrets): Uint8Array<ArrayBuffer> {
  return new Uint8Array(deps.box.sealJson(s));
}

/** The owner filter of a request: exactly one of project_id, group_id. */
export function ownerWhere(owner: HookOwner | null | undefined): { projectId: number } | { groupId: number } {
  const projectId = Number(owner?.projectId ?? 0);
  const groupId = Number(owner?.groupId ?? 0);
  if (projectId > 0 === groupId > 0) throw paramError("owner must name a project or a group");
  return projectId > 0 ? { projectId } : { groupId };
}

/** The hook `id` of the owner, or NOT_FOUND (`404 Hook Not Found`, GitLab's wording). */
export async function findOwnedHook(deps: Pick<HookDeps, "prisma">, owner: HookOwner | null | undefined, hookId: number | string): Promise<WebHook> {
  const where = ownerWhere(owner);
  const id = Number(hookId);
  const hook = isPositiveInt32(id) ? await deps.prisma.webHook.findFirst({ where: { id, ...where } }) : null;
  if (!hook) throw notFound("Hook");
  return hook;
}

/** executable, temporarily_disabled or disabled (GitLab's WebHooks::AutoDisabling#alert_status). */
export function alertStatus(hook: Pick<WebHook, "permanentlyDisabled" | "disabledUntil">, now = new Date()): string {
  if (hook.permanentlyDisabled) return "disabled";
  if (hook.disabledUntil && hook.disabledUntil > now) return "temporarily_disabled";
  return "executable";
}

/** The Hook message: no secret values, only which keys exist. */
export function toHookMessage(deps: Pick<HookDeps, "box">, hook: WebHook, now = new Date()): Hook {
  const status = alertStatus(hook, now);
  const secrets = openSecrets(deps, hook);
  const msg: Hook = {
    id: hook.id,
    projectId: hook.projectId ?? 0,
    groupId: hook.groupId ?? 0,
    url: maskedUrl(hook.url, secrets.credentials),
    name: hook.name,
    description: hook.description,
    createdAt: hook.createdAt.toISOString(),
    enableSslVerification: hook.enableSslVerification,
    alertStatus: status,
    disabledUntil: status === "temporarily_disabled" && hook.disabledUntil ? hook.disabledUntil.toISOString() : "",
    urlVariableKeys: hook.urlVariableKeys,
    customHeaderKeys: hook.customHeaderKeys,
    pushEventsBranchFilter: hook.pushEventsBranchFilter ?? "",
    branchFilterStrategy: hook.branchFilterStrategy,
    customWebhookTemplate: hook.customWebhookTemplate ?? "",
    uuid: hook.uuid,
    tokenSet: secrets.token !== null,
  };
  const record = msg as Record<string, unknown>;
  for (const s of [...PROJECT_SWITCHES, ...GROUP_SWITCHES]) record[s] = hook[s];
  return msg;
}

/** Fields that reset GitLab's auto-disabling state (success, test, resend, update). */
export const ENABLED_STATE = { recentFailures: 0, backoffCount: 0, disabledUntil: null, permanentlyDisabled: false } as const;

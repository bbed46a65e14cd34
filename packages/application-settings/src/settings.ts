// The instance settings Quarry honours (GitLab's ApplicationSetting, GET/PUT /application/settings),
// under GitLab's names and with GitLab's defaults. identity-service stores them; every service
// that applies one keeps a live copy (ApplicationSettingsCache), so this one schema is the contract.
import { VISIBILITIES } from "@quarry/gitlab";
import { z } from "zod";

const visibility = z.enum(VISIBILITIES);

/** Each honoured setting, its GitLab default, and the service that applies it. */
export const applicationSettingsShape = {
  /** identity-service: a project created without `visibility`. */
  default_project_visibility: visibility.default("private"),
  /** identity-service: a group created without `visibility`. */
  default_group_visibility: visibility.default("private"),
  /** identity-service: the default branch of new projects (null: Git's "main"). */
  default_branch_name: z.string().nullable().default(null),
  /** repo-service: how a project's default branch is protected when it is first pushed (0–4, GitLab's Gitlab::Access). */
  default_branch_protection: z.number().int().min(0).max(4).default(2),
  /** collab-service: notes one user may create per minute; 0 = no limit. */
  notes_create_limit: z.number().int().min(0).default(300),
  /** hook-service and mirror-service: webhooks and mirrors may reach loopback and private networks (QUARRY_ALLOW_LOCAL_REQUESTS=true allows it whatever this says). */
  allow_local_requests_from_web_hooks_and_services: z.boolean().default(false),
  /** gateway: largest Markdown upload, in MB. */
  max_attachment_size: z.number().int().min(1).default(100),
  /** identity-service: new users are external unless said otherwise. */
  user_default_external: z.boolean().default(false),
  /** identity-service: new users may create top-level groups unless said otherwise. */
  can_create_group: z.boolean().default(true),
  /** identity-service: projects_limit of new users. */
  default_projects_limit: z.number().int().min(0).max(2_147_483_647).default(100_000),
};

export const applicationSettingsSchema = z.object(applicationSettingsShape);
export type ApplicationSettings = z.infer<typeof applicationSettingsSchema>;
export type ApplicationSettingName = keyof ApplicationSettings;
export const APPLICATION_SETTING_NAMES = Object.keys(applicationSettingsShape) as ApplicationSettingName[];

/** GitLab's defaults: what an instance nobody configured applies. */
export const DEFAULT_APPLICATION_SETTINGS: ApplicationSettings = applicationSettingsSchema.parse({});

/** A stored document read back: unknown keys dropped, missing or invalid ones at their defaults. */
export function normalizeApplicationSettings(stored: unknown): ApplicationSettings {
  const input = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const name of APPLICATION_SETTING_NAMES) {
    const parsed = applicationSettingsShape[name].safeParse(input[name]);
    out[name] = parsed.success ? parsed.data : DEFAULT_APPLICATION_SETTINGS[name];
  }
  return out as ApplicationSettings;
}

/**
 * GitLab's default_branch_protection_defaults for a default_branch_protection level (the newer
 * object form): who may push and merge, force pushes, and whether Developers may push the first
 * commit. The levels match repo-service's DEFAULT_BRANCH_PROTECTION rule table.
 */
export function branchProtectionDefaults(level: number) {
  const maintainer = [{ access_level: 40 }];
  const developer = [{ access_level: 30 }];
  const rule = (push: typeof developer, merge: typeof developer, force: boolean, initial: boolean) => ({
    allowed_to_push: push,
    allow_force_push: force,
    allowed_to_merge: merge,
    developer_can_initial_push: initial,
  });
  if (level === 0) return rule(developer, developer, true, false); // not protected
  if (level === 1) return rule(developer, developer, false, false); // Developers can push
  if (level === 3) return rule(maintainer, developer, false, false); // Developers can merge
  if (level === 4) return rule(maintainer, maintainer, false, true); // protected after the initial push
  return rule(maintainer, maintainer, false, false); // 2: fully protected
}
